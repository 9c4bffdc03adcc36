import { apk, apkReplaced, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorClient } from './device-helpers.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import { apkSigner, buildApk, type ApkSigner } from './apk-fixtures.js';
import { tusCreate, tusPatch, tusTarget } from './ota-helpers.js';

/**
 * Issue 25 item 12: the APK upload calls take the spec's multipart `file` (small files) besides a
 * resumable upload's id, through the same reading and storing; the plain APK file calls and
 * /sendData/updateApk answer with a refusal naming the call to use.
 */
describe.each(backends)('APK calls as spec 3 section 7 names them on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let signer: ApkSigner;

  async function multipart(
    path: string,
    fields: Record<string, string>,
    file?: { name: string; content: Buffer; field?: string },
    language = 'en-US',
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (file) form.append(file.field ?? 'file', new Blob([new Uint8Array(file.content)]), file.name);
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      body: form,
      headers: { cookie: `pf_session=${operator.cookie('pf_session')}`, 'accept-language': language },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const apkOf = (versionCode: number, packageName = 'com.riverside.forms') =>
    buildApk({ packageName, versionCode, versionName: `${versionCode}.0`, label: 'Forms' }, signer);

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    signer = apkSigner('Multipart Fixture');
  });
  afterAll(() => server?.stop());

  it('a new card, a new version and an auxiliary app from multipart file fields', async () => {
    const card = await multipart(
      '/apkUpgrade/uploadApkPackage',
      { mark: 'F-O-R-M', remark: 'sent whole' },
      { name: 'forms-1.apk', content: await apkOf(1) },
    );
    expect(card.body).toMatchObject({ hhtStatus: 'success' });
    const made = apk.uploadApk.reply.parse(card.body).dataObject;
    expect(made).toMatchObject({ packageName: 'com.riverside.forms', versionCode: 1 });

    const version = apk.uploadNewApkVersion.reply.parse(
      (
        await multipart(
          '/apkUpgrade/uploadNewApkPackage',
          { apkMarkId: String(made.apkMarkId), remark: 'two' },
          { name: 'forms-2.apk', content: await apkOf(2) },
        )
      ).body,
    ).dataObject;
    expect(version).toMatchObject({ apkMarkId: made.apkMarkId, versionCode: 2 });

    const sub = await multipart(
      '/apkUpgrade/uploadApkFileSub',
      { apkMarkId: String(made.apkMarkId), apkVersionId: String(version.apkVersionId) },
      { name: 'helper.apk', content: await apkOf(7, 'com.riverside.helper') },
    );
    expect(sub.body).toMatchObject({ hhtStatus: 'success' });

    const details = apk.apkDetails.reply.parse(
      (await operator.get(`/apkUpgrade/apkDetails?start=1&size=100&apkMarkId=${made.apkMarkId}`)).body,
    );
    expect(details.listObject.map((v) => [v.versionCode, v.fileName, v.remark])).toEqual([
      [2, 'forms-2.apk', 'two'],
      [1, 'forms-1.apk', 'sent whole'],
    ]);
    expect(details.listObject[0]!.apkFileSubList.map((s) => s.packageName)).toEqual(['com.riverside.helper']);
    // Read like any upload: not an APK is refused with the reader's words, and nothing is left.
    const notApk = await multipart(
      '/apkUpgrade/uploadApkPackage',
      { mark: 'N-O-P-E' },
      { name: 'x.apk', content: Buffer.from('not a zip') },
    );
    expect(notApk.body).toMatchObject({ hhtStatus: 'fail' });
    expect(String(notApk.body.hhtMsg)).toContain('APK');
    const leftovers = await server.app.db.kysely.selectFrom('uploads').select('id').execute();
    expect(leftovers).toEqual([]);
  });

  it('refuses both ways at once, neither, and another file field, in the envelope', async () => {
    const t = tusTarget(server.url, operator);
    const content = await apkOf(9, 'com.riverside.both');
    const created = await tusCreate(t, content.length, 'both.apk', 'apk');
    await tusPatch(t, created.uploadId!, 0, content);
    const both = await multipart(
      '/apkUpgrade/uploadApkPackage',
      { mark: 'B-O-T-H', uploadId: created.uploadId! },
      { name: 'both.apk', content },
    );
    expect(both).toMatchObject({
      status: 400,
      body: { hhtStatus: 'fail', hhtMsg: translate('en-US', 'apk.fileOrUpload') },
    });
    const neither = await multipart('/apkUpgrade/uploadApkPackage', { mark: 'N-O-N-E' }, undefined, 'zh-CN');
    expect(neither.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('zh-CN', 'apk.fileOrUpload') });
    const wrongField = await multipart(
      '/apkUpgrade/uploadApkPackage',
      { mark: 'W-R-O-N' },
      { name: 'x.apk', content, field: 'apkFile' },
    );
    expect(wrongField).toMatchObject({ status: 400, body: { hhtStatus: 'fail' } });
  });

  it('answers the plain APK file calls and /sendData/updateApk with the call to use, in both languages', async () => {
    for (const [method, path] of [
      ['POST', '/apkFile/apkFileUpload'],
      ['POST', '/apkFile/delete'],
      ['GET', '/apkFile/download'],
      ['POST', '/sendData/updateApk'],
    ] as const) {
      for (const language of ['en-US', 'zh-CN'] as const) {
        const reply = await operator.request(method, path, {
          ...(method === 'POST' ? { form: { apkId: '1' } } : {}),
          headers: { 'accept-language': language },
        });
        expect(reply.status).toBe(410);
        expect(reply.headers.get('content-type')).toContain('application/json');
        expect(reply.body).toMatchObject({
          hhtStatus: 'fail',
          hhtMsg: translate(language, 'apk.callReplaced', {
            call: path,
            use: apkReplaced.REPLACED_APK_CALLS[path],
          }),
        });
      }
    }
    expect(apkReplaced.REPLACED_APK_CALLS['/sendData/updateApk']).toContain('/apkUpgrade/install');
    expect(apkReplaced.REPLACED_APK_CALLS['/apkFile/apkFileUpload']).toContain(
      '/apkUpgrade/uploadApkPackage',
    );
  });
});
