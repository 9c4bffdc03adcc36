import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { apk } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apkSigner, buildApk, type ApkSigner } from './apk-fixtures.js';
import { operatorClient, waitFor } from './device-helpers.js';
import { backends, joinServer, startServer, TestClient, type TestServer } from './harness.js';
import { tusCreate, tusOffset, tusPatch, tusTarget } from './ota-helpers.js';

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

// An APK's SHA-256 and its v2 chunk digests are taken while its bytes arrive; a part cut off, and
// a restart that loses them, must still end in the right checksum and a verified signer.
describe.each(backends)('an APK upload cut off and resumed, also across a restart, on %s', (backend) => {
  let owner: TestServer;
  /** The instance that takes the uploads, restarted by the tests (same DATA_DIR and database). */
  let server: TestServer;
  let operator: TestClient;
  let signer: ApkSigner;

  beforeAll(async () => {
    owner = await startServer(backend);
    server = await joinServer(owner);
    operator = await operatorClient(owner);
    signer = apkSigner('Resume Signer');
  });
  afterAll(async () => {
    await server?.stop();
    await owner?.stop();
  });

  const restart = async () => {
    await server.app.close();
    server = await joinServer(owner);
  };
  const target = () => tusTarget(server.url, operator);
  const build = (versionCode: number) =>
    buildApk(
      {
        packageName: `com.panel.resume${versionCode}`,
        versionCode,
        versionName: `1.${versionCode}`,
        label: 'Resume',
        padding: 5 * MiB + 777,
      },
      signer,
    );

  /**
   * A PATCH that announces all of `bytes` but whose client goes away after `sent` of them, once the
   * server has begun to store them; the offset the server answers after (what it had not yet taken
   * in when the connection broke is lost, and tus resumes from there).
   */
  async function cutPatch(id: string, offset: number, bytes: Buffer, sent: number) {
    const request = http.request(`${server.url}/upload/tus/${id}`, {
      method: 'PATCH',
      headers: {
        cookie: target().cookie,
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    request.on('error', () => undefined);
    // Handed to the kernel whole before the client goes: a destroyed request drops what it still buffers.
    await new Promise<void>((resolve, reject) =>
      request.write(bytes.subarray(0, sent), (error) => (error ? reject(error) : resolve())),
    );
    const file = path.join(server.dataDir, 'uploads', id);
    await waitFor('the first bytes of the part stored', () => fs.statSync(file).size > offset);
    request.destroy();
    // The next request for the upload ends the part (if the server has not yet seen the client go).
    const head = await tusOffset(target(), id);
    expect(head.status).toBe(200);
    // What the server had taken in when the connection broke: some of the part, at most what was sent.
    expect(head.offset).toBeGreaterThan(offset);
    expect(head.offset).toBeLessThanOrEqual(offset + sent);
    return head.offset;
  }

  async function patchUntil(id: string, content: Buffer, from: number, end: number) {
    let offset = from;
    while (offset < end) {
      const next = await tusPatch(
        target(),
        id,
        offset,
        content.subarray(offset, Math.min(end, offset + MiB)),
      );
      expect(next.status).toBe(204);
      offset = next.offset;
    }
    return offset;
  }

  async function create(content: Buffer) {
    const created = await tusCreate(target(), content.length, 'resume.apk', 'apk');
    expect(created.response.status).toBe(201);
    return created.uploadId!;
  }

  async function uploadedSha256(id: string) {
    const row = await server.app.db.kysely
      .selectFrom('uploads')
      .select(['state', 'sha256'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row;
  }

  /** The claim, on the instance that took the upload (where its chunk digests are, if anywhere). */
  async function claim(id: string) {
    const here = new TestClient(server.url);
    here.setCookie('pf_session', operator.cookie('pf_session')!);
    const made = await here.post('/apkUpgrade/uploadApkPackage', { uploadId: id, mark: 'PF-RS-2026-A' });
    if (made.body.hhtStatus !== 'success') throw new Error(made.text);
    const versionId = apk.uploadApk.reply.parse(made.body).dataObject.apkVersionId;
    return server.app.db.kysely
      .selectFrom('apk_versions')
      .select(['sha256', 'signer_sha256', 'file_size', 'stored_path'])
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
  }

  it('a part cut off mid-way and resumed on the same instance: the running SHA-256 is the stored one, the signer verified', async () => {
    const content = await build(1);
    const id = await create(content);
    let offset = await patchUntil(id, content, 0, Math.floor(1.5 * MiB));
    offset = await cutPatch(id, offset, content.subarray(offset, offset + 2 * MiB), MiB + 700_001);
    await patchUntil(id, content, offset, content.length);
    expect(await uploadedSha256(id)).toEqual({ state: 'complete', sha256: sha256(content) });
    const version = await claim(id);
    expect([version.sha256, Number(version.file_size), version.signer_sha256]).toEqual([
      sha256(content),
      content.length,
      signer.sha256,
    ]);
    const stored = fs.readFileSync(path.join(server.dataDir, 'files', version.stored_path));
    expect(sha256(stored)).toBe(sha256(content));
  });

  it('cut off, then the server restarts (its running hashes lost): the upload resumes and ends in the right SHA-256 and signer', async () => {
    const content = await build(2);
    const id = await create(content);
    let offset = await patchUntil(id, content, 0, 2 * MiB + 5);
    offset = await cutPatch(id, offset, content.subarray(offset, offset + 2 * MiB), MiB + 300_000);
    await restart();
    offset = await patchUntil(id, content, offset, content.length);
    expect(offset).toBe(content.length);
    expect(await uploadedSha256(id)).toEqual({ state: 'complete', sha256: sha256(content) });
    const version = await claim(id);
    expect([version.sha256, version.signer_sha256]).toEqual([sha256(content), signer.sha256]);
  });

  it('a restart between the last part and the claim: the claim checks the signer from the file itself', async () => {
    const content = await build(3);
    const id = await create(content);
    await patchUntil(id, content, 0, content.length);
    await restart();
    expect(await uploadedSha256(id)).toEqual({ state: 'complete', sha256: sha256(content) });
    const version = await claim(id);
    expect([version.sha256, version.signer_sha256]).toEqual([sha256(content), signer.sha256]);
  });
});
