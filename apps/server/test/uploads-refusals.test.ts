import fs from 'node:fs';
import path from 'node:path';
import { failWithKey, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorClient } from './device-helpers.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import { firmwareBytes, tusCreate, tusPatch, tusTarget } from './ota-helpers.js';

const zh = (key: string) => failWithKey(translate('zh-CN', key), key);

// Every refusal of the resumable-upload endpoints is the envelope, as JSON, in the caller's language.
describe.each(backends)('refusals of the resumable upload on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  const headers = () => ({
    cookie: `pf_session=${operator.cookie('pf_session')}`,
    'accept-language': 'zh-CN',
  });
  const tus = (method: string, uploadId: string, extra: Record<string, string> = {}, body?: Uint8Array) =>
    fetch(`${server.url}/upload/tus/${uploadId}`, {
      method,
      headers: { ...headers(), 'tus-resumable': '1.0.0', ...extra },
      body,
    });
  const patchHeaders = (offset: number) => ({
    'upload-offset': String(offset),
    'content-type': 'application/offset+octet-stream',
  });
  const refusal = async (response: Response) => ({
    status: response.status,
    json: (response.headers.get('content-type') ?? '').startsWith('application/json'),
    body: (response.status === 204 || (await response.clone().text()) === ''
      ? undefined
      : await response.json()) as { hhtStatus?: string } | undefined,
  });

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('an upload whose bytes another instance holds (directory store, not shared) answers 409 upload.elsewhere to every method, never a plain 404', async () => {
    const content = firmwareBytes(300_000, 5);
    const t = tusTarget(server.url, operator, 'zh-CN');
    const { uploadId } = await tusCreate(t, content.length, 'away.bin');
    expect((await tusPatch(t, uploadId!, 0, content.subarray(0, 100_000))).offset).toBe(100_000);
    // Another instance with its own DATA_DIR received them: they are not on this one.
    const dir = path.join(server.dataDir, 'uploads');
    const away = fs.mkdtempSync(path.join(server.dataDir, 'elsewhere-'));
    const move = (from: string, to: string) => {
      for (const name of [uploadId!, `${uploadId}.json`])
        fs.renameSync(path.join(from, name), path.join(to, name));
    };
    move(dir, away);
    const elsewhere = { status: 409, json: true, body: zh('upload.elsewhere') };
    expect(
      await refusal(await tus('PATCH', uploadId!, patchHeaders(100_000), content.subarray(100_000))),
    ).toEqual(elsewhere);
    expect(await refusal(await tus('HEAD', uploadId!))).toEqual({ ...elsewhere, body: undefined });
    expect(await refusal(await tus('DELETE', uploadId!))).toEqual(elsewhere);
    expect(
      await operator.get(`/upload/state?uploadId=${uploadId}`, { 'accept-language': 'zh-CN' }),
    ).toMatchObject({
      status: 409,
      body: zh('upload.elsewhere'),
    });
    // Nothing changed: back on its instance, the upload goes on and is claimed there.
    move(away, dir);
    expect((await tusPatch(t, uploadId!, 100_000, content.subarray(100_000))).offset).toBe(content.length);
    move(dir, away);
    const claim = await operator.post(
      '/otaFile/insert',
      { uploadId: uploadId!, otaVersion: '9.9.1', fitMachineTypeId: '1' },
      { 'accept-language': 'zh-CN' },
    );
    expect([claim.status, claim.body]).toEqual([409, zh('upload.elsewhere')]);
    move(away, dir);
    expect((await tus('DELETE', uploadId!)).status).toBe(204);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('tus refusals (version, content type, offset, length, unknown upload, bad headers) are envelopes too', async () => {
    const content = firmwareBytes(50_000, 6);
    const { uploadId } = await tusCreate(tusTarget(server.url, operator), content.length, 'checked.bin');
    const id = uploadId!;
    const part = content.subarray(0, 10_000);
    expect(
      await refusal(await tus('PATCH', id, { ...patchHeaders(0), 'tus-resumable': '0.2.2' }, part)),
    ).toEqual({
      status: 412,
      json: true,
      body: zh('upload.versionRequired'),
    });
    // A part without its body type; one with a type the HTTP layer has no reader for is refused there, also in the envelope.
    expect(await refusal(await tus('PATCH', id, { 'upload-offset': '0' }))).toEqual({
      status: 415,
      json: true,
      body: zh('upload.contentType'),
    });
    const octets = await refusal(
      await tus('PATCH', id, { ...patchHeaders(0), 'content-type': 'application/octet-stream' }, part),
    );
    expect([octets.status, octets.json, octets.body?.hhtStatus]).toEqual([415, true, 'fail']);
    expect(await refusal(await tus('PATCH', id, patchHeaders(5), part))).toEqual({
      status: 409,
      json: true,
      body: zh('upload.offsetConflict'),
    });
    expect(await refusal(await tus('PATCH', id, patchHeaders(0), firmwareBytes(60_000, 7)))).toEqual({
      status: 413,
      json: true,
      body: zh('upload.beyondLength'),
    });
    expect(await refusal(await tus('PATCH', id, { ...patchHeaders(0), 'upload-offset': 'x' }, part))).toEqual(
      {
        status: 400,
        json: true,
        body: zh('upload.requestInvalid'),
      },
    );
    expect(await refusal(await tus('PATCH', 'f'.repeat(32), patchHeaders(0), part))).toEqual({
      status: 404,
      json: true,
      body: zh('upload.notFound'),
    });
    const noVersion = await fetch(`${server.url}/upload/tus/${id}`, { method: 'DELETE', headers: headers() });
    expect(await refusal(noVersion)).toEqual({ status: 412, json: true, body: zh('upload.versionRequired') });
    const badLength = await fetch(`${server.url}/upload/tus`, {
      method: 'POST',
      headers: { ...headers(), 'tus-resumable': '1.0.0', 'upload-length': 'lots' },
    });
    expect(await refusal(badLength)).toEqual({ status: 400, json: true, body: zh('upload.requestInvalid') });
    // None of them stored a byte.
    const head = await tus('HEAD', id);
    expect([head.status, head.headers.get('upload-offset')]).toEqual([200, '0']);
  });
});
