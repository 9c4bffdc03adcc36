import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { materials, ota } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadVerified } from '../../simulator/src/download.js';
import { wavTone } from './audio-fixtures.js';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';
import { backends, joinServer, startServer, type TestClient, type TestServer } from './harness.js';
import { firmwareBytes, tusTarget, tusUpload } from './ota-helpers.js';
import { startS3, type TestS3 } from './s3-server.js';

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Files below DATA_DIR an instance would keep of its own (besides secrets, the outbox, ...). */
const filesUnder = (dataDir: string) => {
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      : [];
  return ['files', 'avatars', 'uploads', 'tmp'].flatMap((d) => walk(path.join(dataDir, d)));
};

// Two instances on one PostgreSQL database and one S3 bucket, each with its own DATA_DIR (two
// machines): what one stores, the other lists, serves to the console and hands to panels.
describe.runIf(backends.includes('postgres'))('two instances sharing an S3 bucket', () => {
  let s3: TestS3;
  let a: TestServer;
  let b: TestServer;
  let onA: TestClient;
  let onB: TestClient;

  beforeAll(async () => {
    s3 = await startS3();
    const signingKey = crypto
      .generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const env = { ...s3.env, FIRMWARE_SIGNING_KEY: signingKey };
    a = await startServer('postgres', env);
    b = await joinServer(a, env, {}, fs.mkdtempSync(path.join(os.tmpdir(), 'pf-test-b-')));
    onA = await operatorClient(a);
    onB = await operatorClient(b);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await s3?.stop();
  });

  it('a firmware and an audio stored through A are listed, served and downloaded through B, and deleted there', async () => {
    const firmware = firmwareBytes(2 * 1024 * 1024 + 5, 21);
    const uploadId = await tusUpload(tusTarget(a.url, onA), firmware, 'fw-3.0.0.bin');
    const types = ota.listMachineTypeOptions.reply
      .parse((await onA.get('/otaFile/machineTypeOptions')).body)
      .listObject.map((o) => o.machineTypeId);
    const inserted = await onA.post('/otaFile/insert', {
      uploadId,
      otaVersion: '3.0.0',
      fitMachineTypeId: types.join(','),
    });
    const fileId = ota.insertOtaFile.reply.parse(inserted.body).dataObject.id;

    const form = new FormData();
    form.append('fileType', '2');
    form.append('uiFile', new Blob([new Uint8Array(wavTone(1))]), 'bell.wav');
    const audio = materials.insertMaterial.reply.parse(
      await (
        await fetch(`${a.url}/material/insertMaterial`, {
          method: 'POST',
          headers: { cookie: `pf_session=${onA.cookie('pf_session')}` },
          body: form,
        })
      ).json(),
    ).dataObject;
    expect(s3.objects()).toHaveLength(2);

    // B lists both and serves the audio to the console from the bucket.
    const listed = ota.listOtaFiles.reply.parse((await onB.get('/otaFile/list?start=1&size=10')).body);
    expect(listed.listObject.map((f) => f.id)).toContain(fileId);
    const served = await fetch(`${b.url}/material/file?materialId=${audio.materialId}`, {
      headers: { cookie: `pf_session=${onB.cookie('pf_session')}` },
    });
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(audio.sha256);

    // A panel's link signed by B (the same key on every instance), checked by A, bytes from the bucket.
    const row = await b.app.db.kysely
      .selectFrom('ota_files')
      .select('stored_path')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    const panel = await enroll(b.url, 'TWO-S3-1', await enrollmentSecretOf(onB));
    const signed = b.app.devices.downloads.signedUrl(
      { path: row.stored_path, size: firmware.length, sha256: sha256(firmware) },
      'TWO-S3-1',
    );
    const link = new URL(signed.url);
    expect(
      await downloadVerified({
        url: `${a.url}${link.pathname}${link.search}`,
        size: firmware.length,
        sha256: sha256(firmware),
        username: 'TWO-S3-1',
        password: panel.password,
        progress: () => undefined,
        maxAttempts: 1,
      }),
    ).toMatchObject({ ok: true });

    expect((await onB.post('/otaFile/delete', { otaFileId: String(fileId) })).body).toMatchObject({
      hhtStatus: 'success',
    });
    expect(
      (await onB.post('/material/deleteMaterial', { materialId: String(audio.materialId) })).body,
    ).toMatchObject({ hhtStatus: 'success' });
    expect(s3.objects()).toEqual([]);
    expect([...filesUnder(a.dataDir), ...filesUnder(b.dataDir)]).toEqual([]);
  });
});
