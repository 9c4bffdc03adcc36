import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apk, materials, ota, uploads } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadVerified } from '../../simulator/src/download.js';
import { apkSigner, buildApk } from './apk-fixtures.js';
import { TestBalancer } from './balancer.js';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';
import { backends, joinServer, startServer, TestClient, type TestServer } from './harness.js';
import { firmwareBytes, tusCreate, tusOffset, tusPatch, tusTarget, type TusTarget } from './ota-helpers.js';
import { startS3, type TestS3 } from './s3-server.js';

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Files below DATA_DIR an instance keeps of an upload (in progress, or a work copy). */
const uploadFilesUnder = (dataDir: string) => {
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      : [];
  return ['files', 'uploads', 'tmp'].flatMap((d) => walk(path.join(dataDir, d)));
};

/** An MP4 head (what the content check recognises) followed by bytes. */
function mp4(size: number) {
  const head = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'latin1'),
  ]);
  return Buffer.concat([head, firmwareBytes(size - head.length, 77)]);
}

// Two instances with their own DATA_DIR on one PostgreSQL database and one S3 bucket, behind a
// round-robin balancer: an upload's requests go to whichever instance, every other one elsewhere.
describe.runIf(backends.includes('postgres'))('resumable uploads through any instance (S3 store)', () => {
  let s3: TestS3;
  let a: TestServer;
  let b: TestServer;
  let balancer: TestBalancer;
  let operator: TestClient;
  /** The operator's session (kept in the database, so good on every instance) through the balancer. */
  let onBalancer: TestClient;
  let viaBalancer: TusTarget;

  beforeAll(async () => {
    s3 = await startS3();
    const signingKey = crypto
      .generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const env = { ...s3.env, FIRMWARE_SIGNING_KEY: signingKey };
    a = await startServer('postgres', env);
    b = await joinServer(a, env, {}, fs.mkdtempSync(path.join(os.tmpdir(), 'pf-test-b-')));
    balancer = await TestBalancer.start([a.url, b.url]);
    operator = await operatorClient(a);
    viaBalancer = tusTarget(balancer.url, operator);
    onBalancer = new TestClient(balancer.url);
    onBalancer.setCookie('pf_session', operator.cookie('pf_session')!);
  });
  afterAll(async () => {
    await balancer?.stop();
    await b?.stop();
    await a?.stop();
    await s3?.stop();
  });

  /**
   * Uploads `content` in 6 MiB PATCHes through the balancer (alternating instances); the second
   * part reaches A only in half (3 MiB: below S3's smallest part, kept as `<id>.part`), and the
   * upload resumes through B.
   */
  async function uploadAcrossInstances(content: Buffer, fileName: string, kind: string) {
    const part = 6 * MiB;
    const created = await tusCreate(viaBalancer, content.length, fileName, kind);
    expect(created.response.status).toBe(201);
    const id = created.uploadId!;
    let offset = (await tusPatch(viaBalancer, id, 0, content.subarray(0, part))).offset;
    expect(offset).toBe(part);
    // The next part reaches A only in half (the client went away); the upload goes on through B.
    const half = (
      await tusPatch(tusTarget(a.url, operator), id, offset, content.subarray(offset, offset + part / 2))
    ).offset;
    expect(half).toBe(part + part / 2);
    expect(await tusOffset(tusTarget(b.url, operator), id)).toEqual({ status: 200, offset: half });
    offset = (await tusPatch(tusTarget(b.url, operator), id, half, content.subarray(half, half + part)))
      .offset;
    while (offset < content.length) {
      const next = await tusPatch(viaBalancer, id, offset, content.subarray(offset, offset + part));
      expect(next.status).toBe(204);
      offset = next.offset;
    }
    expect(offset).toBe(content.length);
    const state = uploads.getUpload.reply.parse(
      (await onBalancer.get(`/upload/state?uploadId=${id}`)).body,
    ).dataObject;
    expect(state).toMatchObject({ state: 'complete', size: content.length, sha256: sha256(content) });
    return { id, md5: state.md5 };
  }

  /** A panel fetches `stored` (a key below files/) through its signed link, via the balancer, and checks its SHA-256. */
  async function panelDownloads(serial: string, stored: string, content: Buffer) {
    const panel = await enroll(a.url, serial, await enrollmentSecretOf(operator));
    const signed = b.app.devices.downloads.signedUrl(
      { path: stored, size: content.length, sha256: sha256(content) },
      serial,
    );
    const link = new URL(signed.url);
    return downloadVerified({
      url: `${balancer.url}${link.pathname}${link.search}`,
      size: content.length,
      sha256: sha256(content),
      username: serial,
      password: panel.password,
      progress: () => undefined,
      maxAttempts: 1,
    });
  }

  const leftovers = () => ({
    bucket: s3.objects().filter((key) => key.startsWith('uploads/')),
    pending: s3.pendingUploads(),
    disks: [...uploadFilesUnder(a.dataDir), ...uploadFilesUnder(b.dataDir)].filter(
      (f) => !f.includes('/files/'),
    ),
  });

  it('a firmware cut halfway and resumed through the other instance becomes an OTA file with the right SHA-256; a panel downloads it', async () => {
    const content = firmwareBytes(20 * MiB + 77, 31);
    const { id, md5 } = await uploadAcrossInstances(content, 'fw-4.0.0.bin', 'firmware');
    expect(md5).toBe(crypto.createHash('md5').update(content).digest('hex'));
    const types = ota.listMachineTypeOptions.reply
      .parse((await operator.get('/otaFile/machineTypeOptions')).body)
      .listObject.map((o) => o.machineTypeId);
    const inserted = await onBalancer.post('/otaFile/insert', {
      uploadId: id,
      otaVersion: '4.0.0',
      fitMachineTypeId: types.join(','),
    });
    const fileId = ota.insertOtaFile.reply.parse(inserted.body).dataObject.id;
    const file = ota.getOtaFile.reply.parse(
      (await operator.get(`/otaFile/selectById?otaFileId=${fileId}`)).body,
    ).dataObject;
    expect([file.fileSize, file.sha256, file.fileMd5]).toEqual([content.length, sha256(content), md5]);
    const row = await a.app.db.kysely
      .selectFrom('ota_files')
      .select('stored_path')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    expect(await panelDownloads('UP-OTA-1', row.stored_path, content)).toMatchObject({ ok: true });
    expect(leftovers()).toEqual({ bucket: [], pending: [], disks: [] });
  });

  it('an APK and a video material the same way', async () => {
    const packageBytes = await buildApk(
      {
        packageName: 'com.panel.across',
        versionCode: 3,
        versionName: '1.3',
        label: 'Across',
        padding: 14 * MiB,
      },
      apkSigner('CN=Across'),
    );
    const apkUpload = await uploadAcrossInstances(packageBytes, 'across.apk', 'apk');
    const made = await onBalancer.post('/apkUpgrade/uploadApkPackage', {
      uploadId: apkUpload.id,
      mark: 'PF-UP-2026-A',
    });
    if (made.body.hhtStatus !== 'success') throw new Error(made.text);
    const versionId = apk.uploadApk.reply.parse(made.body).dataObject.apkVersionId;
    const version = await a.app.db.kysely
      .selectFrom('apk_versions')
      .select(['stored_path', 'sha256', 'file_size'])
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
    expect([version.sha256, Number(version.file_size)]).toEqual([sha256(packageBytes), packageBytes.length]);
    expect(await panelDownloads('UP-APK-1', version.stored_path, packageBytes)).toMatchObject({ ok: true });

    const video = mp4(13 * MiB + 5);
    const videoUpload = await uploadAcrossInstances(video, 'hall.mp4', 'video');
    const material = materials.insertVideo.reply.parse(
      (await onBalancer.post('/material/insertVideo', { uploadId: videoUpload.id })).body,
    ).dataObject;
    expect([material.sha256, material.fileSize]).toEqual([sha256(video), video.length]);
    const stored = await a.app.db.kysely
      .selectFrom('materials')
      .select('stored_name')
      .where('id', '=', material.materialId)
      .executeTakeFirstOrThrow();
    expect(await panelDownloads('UP-VIDEO-1', `materials/${stored.stored_name}`, video)).toMatchObject({
      ok: true,
    });
    expect(leftovers()).toEqual({ bucket: [], pending: [], disks: [] });
  });
});
