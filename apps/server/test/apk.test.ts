import fs from 'node:fs';
import path from 'node:path';
import { apk, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { operatorClient } from './device-helpers.js';
import { tusCreate, tusPatch, tusTarget } from './ota-helpers.js';
import { apkSigner, buildApk, zipBomb, type ApkSigner, type ApkSpec } from './apk-fixtures.js';

const LIMIT = 8 * 1024 * 1024;

describe.each(backends)('APK repository on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let zhOperator: TestClient;
  let other: TestClient;
  let signerA: ApkSigner;
  let signerB: ApkSigner;

  const ok = (reply: { body: Record<string, unknown>; text: string }, what: string) => {
    if (reply.body.hhtStatus !== 'success') throw new Error(`${what}: ${reply.text}`);
    return reply.body;
  };

  /** A whole upload of kind apk through tus; its id. */
  async function upload(client: TestClient, content: Buffer, fileName = 'app.apk') {
    const t = tusTarget(server.url, client, client.language);
    const created = await tusCreate(t, content.length, fileName, 'apk');
    if (created.response.status !== 201 || !created.uploadId)
      throw new Error(`upload not created: ${created.response.status} ${created.body}`);
    let offset = 0;
    while (offset < content.length) {
      const next = await tusPatch(t, created.uploadId, offset, content.subarray(offset, offset + 512 * 1024));
      if (next.status !== 204) throw new Error(`PATCH answered ${next.status}`);
      offset = next.offset;
    }
    return created.uploadId;
  }

  const spec = (packageName: string, versionCode: number, label = 'Whiteboard'): ApkSpec => ({
    packageName,
    versionCode,
    versionName: `1.${versionCode}.0`,
    label,
  });

  async function newCard(s: ApkSpec, signer = signerA, client = operator) {
    const uploadId = await upload(client, await buildApk(s, signer), `${s.packageName}-${s.versionCode}.apk`);
    return apk.uploadApk.reply.parse(
      ok(
        await client.post('/apkUpgrade/uploadApkPackage', {
          uploadId,
          mark: 'PF-A1-2024-X',
          remark: 'first',
        }),
        'card',
      ),
    ).dataObject;
  }

  async function newVersion(
    markId: number,
    content: Buffer,
    extra: Record<string, string> = {},
    client = operator,
  ) {
    const uploadId = await upload(client, content);
    return client.post('/apkUpgrade/uploadNewApkPackage', {
      uploadId,
      apkMarkId: String(markId),
      remark: 'next',
      ...extra,
    });
  }

  const details = async (markId: number, client = operator) =>
    apk.apkDetails.reply.parse(
      ok(await client.get(`/apkUpgrade/apkDetails?start=1&size=100&apkMarkId=${markId}`), 'details'),
    );

  /** Files under DATA_DIR/files/apk and DATA_DIR/uploads (refusals must leave none behind). */
  const files = () => {
    const list = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
    return {
      apk: list(path.join(server.dataDir, 'files', 'apk')),
      uploads: list(path.join(server.dataDir, 'uploads')),
    };
  };
  const rowCounts = async () => {
    const count = async (table: 'apk_marks' | 'apk_versions' | 'apk_file_subs') =>
      Number(
        (
          await server.app.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      marks: await count('apk_marks'),
      versions: await count('apk_versions'),
      subs: await count('apk_file_subs'),
    };
  };

  beforeAll(async () => {
    server = await startServer(
      backend,
      { UPLOAD_MAX_APK_BYTES: String(LIMIT) },
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    operator = await operatorClient(server);
    zhOperator = await operatorClient(server);
    zhOperator.language = 'zh-CN';
    other = await signedIn(server, 'sales1', 'sales123');
    signerA = apkSigner('PanelFleet Fixture A');
    signerB = apkSigner('Someone Else');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reads an uploaded APK: package, label, versions, minimum SDK, signer and icon, on a card', async () => {
    const card = await newCard({ ...spec('com.panel.whiteboard', 3), minSdk: 26 });
    expect(card).toMatchObject({
      packageName: 'com.panel.whiteboard',
      label: 'Whiteboard',
      versionName: '1.3.0',
      versionCode: 3,
    });
    const listed = apk.listApkCards.reply.parse(
      ok(await operator.get('/apkUpgrade/listUploadApk?start=1&size=20&label=white'), 'list'),
    );
    const row = listed.listObject.find((c) => c.apkMarkId === card.apkMarkId)!;
    expect(row).toMatchObject({
      label: 'Whiteboard',
      mark: 'PF-A1-2024-X',
      remark: 'first',
      packageName: 'com.panel.whiteboard',
      versionName: '1.3.0',
      signerSha256: signerA.sha256,
      versionCount: 1,
    });
    expect(row.iconName).toMatch(/^\/apkUpgrade\/icon\?kind=version&id=\d+$/);
    const icon = await fetch(server.url + row.iconName, {
      headers: { cookie: `pf_session=${operator.cookie('pf_session')}` },
    });
    expect(icon.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await icon.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // The densest icon of the APK (144 px) was taken.
    expect(png.readUInt32BE(16)).toBe(144);
    const d = await details(card.apkMarkId);
    expect(d.dataObject.apkMarkId).toBe(card.apkMarkId);
    expect(d.listObject).toHaveLength(1);
    expect(d.listObject[0]).toMatchObject({
      logo: 1,
      minSdk: 26,
      versionCode: 3,
      userName: 'operator1',
      remark: 'first',
    });
    // The label search is case-blind and matches any part; another label does not match.
    const none = apk.listApkCards.reply.parse(
      ok(await operator.get('/apkUpgrade/listUploadApk?start=1&size=20&label=nomatch'), 'list'),
    );
    expect(none.totalRecords).toBe(0);
  });

  it('adds versions: a higher versionCode becomes the latest; a lower one only as a deliberate downgrade', async () => {
    const card = await newCard(spec('com.panel.notes', 5, 'Notes'));
    ok(
      await newVersion(card.apkMarkId, await buildApk(spec('com.panel.notes', 6, 'Notes Pro'), signerA)),
      'v6',
    );
    let d = await details(card.apkMarkId);
    expect(d.listObject.map((v) => [v.versionCode, v.logo])).toEqual([
      [6, 1],
      [5, 0],
    ]);
    expect(d.dataObject).toMatchObject({ label: 'Notes Pro', versionCode: 6, versionCount: 2 });
    const lower = await buildApk(spec('com.panel.notes', 4, 'Notes'), signerA);
    const refused = await newVersion(card.apkMarkId, lower);
    expect(refused.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'apk.versionNotHigher', { versionCode: 4, latest: 6 }),
    });
    ok(await newVersion(card.apkMarkId, lower, { downgrade: '1' }), 'downgrade');
    d = await details(card.apkMarkId);
    expect(d.listObject[0]).toMatchObject({ versionCode: 4, logo: 1, downgrade: '1' });
  });

  it("R6: refuses what is not a proper APK or not the card's next version, in the caller's language, storing nothing", async () => {
    const card = await newCard(spec('com.panel.clock', 10, 'Clock'));
    const good = await buildApk(spec('com.panel.clock', 11, 'Clock'), signerA);
    const truncated = good.subarray(0, Math.floor(good.length / 2));
    const tampered = Buffer.from(good);
    // A byte of the uncompressed resources table: the zip stays readable, the v2 digest does not match.
    const at = good.indexOf(Buffer.from('app_name', 'utf16le')) + 2;
    tampered[at] = good[at]! ^ 0x01;
    const cases: Array<{
      name: string;
      content: Buffer;
      key: string;
      vars?: Record<string, string | number>;
    }> = [
      {
        name: 'renamed text file',
        content: Buffer.from('just some text, renamed to .apk\n'.repeat(20)),
        key: 'apk.notApk',
        vars: { detail: 'zip' },
      },
      { name: 'broken zip', content: truncated, key: 'apk.notApk', vars: { detail: 'zip' } },
      { name: 'zip bomb', content: await zipBomb(), key: 'apk.zipBomb' },
      {
        name: 'unsigned',
        content: await buildApk({ ...spec('com.panel.clock', 12), unsigned: true }),
        key: 'apk.unsigned',
      },
      { name: 'changed after signing', content: tampered, key: 'apk.badSignature' },
      {
        name: 'another package',
        content: await buildApk(spec('com.other.app', 20), signerA),
        key: 'apk.packageDiffers',
        vars: { packageName: 'com.other.app', expected: 'com.panel.clock' },
      },
      {
        name: 'lower versionCode',
        content: await buildApk(spec('com.panel.clock', 9), signerA),
        key: 'apk.versionNotHigher',
        vars: { versionCode: 9, latest: 10 },
      },
      {
        name: 'same versionCode',
        content: await buildApk(spec('com.panel.clock', 10), signerA),
        key: 'apk.versionNotHigher',
        vars: { versionCode: 10, latest: 10 },
      },
      {
        name: 'another signer',
        content: await buildApk(spec('com.panel.clock', 13), signerB),
        key: 'apk.signerDiffers',
      },
    ];
    const beforeFiles = files();
    const beforeRows = await rowCounts();
    let rejected = 0;
    for (const [i, c] of cases.entries()) {
      const client = i % 2 ? zhOperator : operator;
      const reply = await newVersion(card.apkMarkId, c.content, {}, client);
      expect(reply.body, c.name).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: translate(client.language as 'en-US', c.key, c.vars ?? {}),
      });
      expect(reply.status, c.name).toBeLessThan(500);
      rejected++;
    }
    // A card is refused for a non-APK too.
    const bad = await upload(operator, Buffer.from('PK\u0003\u0004 not really'));
    expect(
      (await operator.post('/apkUpgrade/uploadApkPackage', { uploadId: bad, mark: 'A-B-C-D' })).body,
    ).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'apk.notApk', { detail: 'zip' }),
    });
    rejected++;
    expect(await rowCounts()).toEqual(beforeRows);
    const after = files();
    expect(after.apk).toEqual(beforeFiles.apk);
    // Not-an-APK uploads are deleted at once; rule refusals keep only the upload (retry with the
    // downgrade box), swept after a day like any unused upload.
    const leftUploads = after.uploads.filter((f) => !beforeFiles.uploads.includes(f) && !f.endsWith('.json'));
    expect(leftUploads).toHaveLength(4);
    console.log(`R6 APK: ${rejected} of ${cases.length + 1} rejected, 0 stray files`);
    expect(rejected).toBe(cases.length + 1);
  });

  it('refuses a mark with missing or over-long parts, an over-long description, and an APK beyond the size limit', async () => {
    const content = await buildApk(spec('com.panel.mark', 1), signerA);
    for (const [mark, key] of [
      ['', 'apk.markNull'],
      ['AB-CD-EF', 'apk.markNull'],
      ['AB--CD-EF', 'apk.markNull'],
      ['ABCDE-A-B-C', 'apk.markInvalid'],
      ['中文-A-B-C', 'apk.markInvalid'],
    ] as const) {
      const uploadId = await upload(operator, content);
      const reply = await zhOperator.post('/apkUpgrade/uploadApkPackage', { uploadId, mark });
      expect(reply.body, mark).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('zh-CN', key) });
    }
    const uploadId = await upload(operator, content);
    const long = await operator.post('/apkUpgrade/uploadApkPackage', {
      uploadId,
      mark: 'A-B-C-D',
      remark: '长'.repeat(101),
    });
    expect(long.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'apk.remarkTooLong') });
    const big = await tusCreate(tusTarget(server.url, operator), LIMIT + 1, 'big.apk', 'apk');
    expect(big.response.status).toBe(413);
    expect(JSON.parse(big.body)).toMatchObject({ hhtStatus: 'fail' });
    expect((await rowCounts()).marks).toBe(
      Number(
        (
          await server.app.db.kysely
            .selectFrom('apk_marks')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    const listed = apk.listApkCards.reply.parse(
      ok(await operator.get('/apkUpgrade/listUploadApk?label=mark'), 'list'),
    );
    expect(listed.totalRecords).toBe(0);
  });

  it('concurrency: two first uploads of one package make one card; two uploads of one versionCode make one version', async () => {
    const [a, b] = await Promise.all([
      buildApk(spec('com.panel.race', 1), signerA),
      buildApk(spec('com.panel.race', 1), signerA),
    ]);
    const ids = await Promise.all([upload(operator, a), upload(operator, b)]);
    const replies = await Promise.all(
      ids.map((uploadId) => operator.post('/apkUpgrade/uploadApkPackage', { uploadId, mark: 'R-A-C-E' })),
    );
    const won = replies.filter((r) => r.body.hhtStatus === 'success');
    expect(won).toHaveLength(1);
    expect(replies.find((r) => r.body.hhtStatus === 'fail')!.body.hhtMsg).toBe(
      translate('en-US', 'apk.packageExists', { packageName: 'com.panel.race' }),
    );
    const markId = apk.uploadApk.reply.parse(won[0]!.body).dataObject.apkMarkId;
    const v2 = await Promise.all([
      buildApk(spec('com.panel.race', 2), signerA),
      buildApk(spec('com.panel.race', 2), signerA),
      buildApk(spec('com.panel.race', 2), signerA),
    ]);
    const versionUploads = await Promise.all(v2.map((c) => upload(operator, c)));
    const versionReplies = await Promise.all(
      versionUploads.map((uploadId) =>
        operator.post('/apkUpgrade/uploadNewApkPackage', { uploadId, apkMarkId: String(markId) }),
      ),
    );
    expect(versionReplies.filter((r) => r.body.hhtStatus === 'success')).toHaveLength(1);
    for (const r of versionReplies.filter((r) => r.body.hhtStatus !== 'success'))
      expect([
        translate('en-US', 'apk.versionTaken', { versionCode: 2 }),
        translate('en-US', 'apk.versionNotHigher', { versionCode: 2, latest: 2 }),
      ]).toContain(r.body.hhtMsg);
    const d = await details(markId);
    expect(d.listObject.map((v) => v.versionCode)).toEqual([2, 1]);
    const onDisk = files().apk.filter((f) => f.endsWith('.apk'));
    const stored = await server.app.db.kysely.selectFrom('apk_versions').select('stored_path').execute();
    expect(onDisk.length).toBe(
      stored.length + (await server.app.db.kysely.selectFrom('apk_file_subs').select('id').execute()).length,
    );
  });

  it('auxiliary apps, descriptions and deletes: the card goes with its last version, also when two deletes race', async () => {
    const card = await newCard(spec('com.panel.board', 1, 'Board'));
    ok(await newVersion(card.apkMarkId, await buildApk(spec('com.panel.board', 2, 'Board'), signerA)), 'v2');
    let d = await details(card.apkMarkId);
    const [latest, first] = d.listObject;
    const subUpload = await upload(
      operator,
      await buildApk(spec('com.panel.helper', 7, 'Helper'), signerB),
      'helper.apk',
    );
    const sub = apk.uploadApkFileSub.reply.parse(
      ok(
        await operator.post('/apkUpgrade/uploadApkFileSub', {
          uploadId: subUpload,
          apkMarkId: String(card.apkMarkId),
          apkVersionId: String(latest!.apkVersionId),
        }),
        'sub',
      ),
    ).dataObject.apkFileSubId;
    ok(
      await operator.post('/apkUpgrade/updateApkRemark', {
        apkVersionId: String(latest!.apkVersionId),
        remark: '修复 bug',
      }),
      'remark',
    );
    d = await details(card.apkMarkId);
    expect(d.listObject[0]).toMatchObject({ remark: '修复 bug' });
    expect(d.listObject[0]!.apkFileSubList).toEqual([
      expect.objectContaining({
        apkFileSubId: sub,
        packageName: 'com.panel.helper',
        fileName: 'helper.apk',
        versionName: '1.7.0',
      }),
    ]);
    // Another company sees none of it.
    expect((await other.get(`/apkUpgrade/apkDetails?apkMarkId=${card.apkMarkId}`)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'apk.cardNotFound'),
    });
    expect(
      (await other.post('/apkUpgrade/deleteApkFileSub', { apkFileSubId: String(sub) })).body,
    ).toMatchObject({
      hhtStatus: 'fail',
    });
    expect(
      (await other.post('/apkUpgrade/deleteApkUpgrade', { apkVersionId: String(first!.apkVersionId) })).body,
    ).toMatchObject({
      hhtStatus: 'fail',
    });
    ok(await operator.post('/apkUpgrade/deleteApkFileSub', { apkFileSubId: String(sub) }), 'delete sub');
    d = await details(card.apkMarkId);
    expect(d.listObject[0]!.apkFileSubList).toEqual([]);

    // An unfinished install of a version keeps it.
    const now = Date.now();
    const orgId = (
      await server.app.db.kysely
        .selectFrom('apk_marks')
        .select('org_id')
        .where('id', '=', card.apkMarkId)
        .executeTakeFirstOrThrow()
    ).org_id;
    const task = await server.app.db.kysely
      .insertInto('rollout_tasks')
      .values({
        org_id: orgId,
        kind: 'apk',
        payload_id: first!.apkVersionId,
        payload: '{}',
        payload_label: 'com.panel.board',
        state: 'running',
        time_enable: 0,
        fire_at: now,
        fire_by: null,
        fired_at: now,
        wave_mode: 'none',
        success_share: 90,
        failure_share: 20,
        min_results: 5,
        wave_count: 1,
        total: 0,
        max_downloads: null,
        created_by: null,
        created_by_name: 'operator1',
        created_at: now,
        updated_at: now,
        finished_at: null,
        lease_owner: null,
        lease_until: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      (await zhOperator.post('/apkUpgrade/deleteApkUpgrade', { apkVersionId: String(first!.apkVersionId) }))
        .body,
    ).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('zh-CN', 'apk.versionInUse', { count: 1 }),
    });
    await server.app.db.kysely
      .updateTable('rollout_tasks')
      .set({ state: 'completed' })
      .where('id', '=', task.id)
      .execute();

    const before = files().apk.length;
    const replies = await Promise.all(
      d.listObject.map((v) =>
        operator.post('/apkUpgrade/deleteApkUpgrade', { apkVersionId: String(v.apkVersionId) }),
      ),
    );
    expect(replies.map((r) => r.body.hhtStatus)).toEqual(['success', 'success']);
    expect(replies.map((r) => (r.body.dataObject as { cardDeleted: string }).cardDeleted).sort()).toEqual([
      '0',
      '1',
    ]);
    expect(
      await server.app.db.kysely
        .selectFrom('apk_marks')
        .select('id')
        .where('id', '=', card.apkMarkId)
        .execute(),
    ).toEqual([]);
    // Two APKs and their two icons are gone from disk.
    expect(files().apk.length).toBe(before - 4);
    expect((await operator.get(`/apkUpgrade/apkDetails?apkMarkId=${card.apkMarkId}`)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'apk.cardNotFound'),
    });
  });
});
