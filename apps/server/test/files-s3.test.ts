import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { apk, materials, ota } from '@panelfleet/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadVerified } from '../../simulator/src/download.js';
import { loadConfig } from '../src/config.js';
import { wavTone } from './audio-fixtures.js';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import { apkSigner, buildApk } from './apk-fixtures.js';
import { firmwareBytes, tusCreate, tusPatch, tusTarget, tusUpload } from './ota-helpers.js';
import { startS3, type TestS3 } from './s3-server.js';

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

describe('FILE_STORE settings', () => {
  it('is a directory by default', () => {
    expect(loadConfig({}).files).toEqual({ kind: 'local' });
  });

  it('refuses to start on S3 without a bucket or an address, saying which', () => {
    expect(() => loadConfig({ FILE_STORE: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /FILE_STORE=s3 needs S3_BUCKET/,
    );
    expect(() => loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'panelfleet' })).toThrow(
      /FILE_STORE=s3 needs S3_ENDPOINT/,
    );
    expect(() => loadConfig({ FILE_STORE: 's3' })).toThrow(/needs S3_ENDPOINT and S3_BUCKET/);
    expect(() =>
      loadConfig({ FILE_STORE: 's3', S3_ENDPOINT: 'http://x', S3_BUCKET: 'abc', S3_ACCESS_KEY_ID: 'k' }),
    ).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/);
    expect(() => loadConfig({ FILE_STORE: 'nfs' })).toThrow(/FILE_STORE/);
  });

  it('takes the S3 settings', () => {
    expect(
      loadConfig({
        FILE_STORE: 's3',
        S3_ENDPOINT: 'http://minio:9000',
        S3_PUBLIC_ENDPOINT: 'https://files.example.org',
        S3_BUCKET: 'panelfleet',
        S3_FORCE_PATH_STYLE: 'off',
      }).files,
    ).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      publicEndpoint: 'https://files.example.org',
      bucket: 'panelfleet',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
  });
});

describe.each(backends)('files in an S3 bucket (s3rver) on %s', (backend) => {
  let s3: TestS3;
  let server: TestServer;
  let operator: TestClient;
  const session = () => ({ cookie: `pf_session=${operator.cookie('pf_session')}` });

  /** Files this instance keeps on its own disk besides the database and its secrets. */
  const localFiles = () => {
    const walk = (dir: string): string[] =>
      fs.existsSync(dir)
        ? fs
            .readdirSync(dir, { withFileTypes: true })
            .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
        : [];
    return ['files', 'avatars', 'uploads', 'tmp'].flatMap((d) => walk(path.join(server.dataDir, d)));
  };

  const uploadMaterial = async (name: string, bytes: Buffer, fileType: number) => {
    const form = new FormData();
    form.append('fileType', String(fileType));
    form.append('uiFile', new Blob([new Uint8Array(bytes)]), name);
    const response = await fetch(`${server.url}/material/insertMaterial`, {
      method: 'POST',
      headers: session(),
      body: form,
    });
    return materials.insertMaterial.reply.parse(await response.json()).dataObject;
  };

  beforeAll(async () => {
    s3 = await startS3();
    server = await startServer(backend, s3.env, {
      throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
    });
    operator = await operatorClient(server);
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
  });

  it('OTA: a tus upload becomes a file in the bucket; a panel downloads it through its own URL, redirected, with Range', async () => {
    const content = firmwareBytes(3 * 1024 * 1024 + 77, 7);
    const uploadId = await tusUpload(tusTarget(server.url, operator), content, 'fw-9.1.0.bin');
    const types = ota.listMachineTypeOptions.reply
      .parse((await operator.get('/otaFile/machineTypeOptions')).body)
      .listObject.map((o) => o.machineTypeId);
    const inserted = await operator.post('/otaFile/insert', {
      uploadId,
      otaVersion: '9.1.0',
      fitMachineTypeId: types.join(','),
      fitOtaVersionId: '',
      remarkFileName: 'through S3',
    });
    const fileId = ota.insertOtaFile.reply.parse(inserted.body).dataObject.id;
    const listed = ota.listOtaFiles.reply.parse((await operator.get('/otaFile/list?start=1&size=10')).body);
    expect(listed.listObject.map((f) => [f.id, f.fileSize, f.sha256])).toContainEqual([
      fileId,
      content.length,
      sha256(content),
    ]);
    const row = await server.app.db.kysely
      .selectFrom('ota_files')
      .select('stored_path')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    // In the bucket, not on this instance's disk: the upload's bytes are gone too.
    expect(s3.objects()).toEqual([`files/${row.stored_path}`]);
    expect(localFiles()).toEqual([]);
    // A version already taken is refused after the bytes went in: they leave the bucket again.
    const again = await tusUpload(tusTarget(server.url, operator), firmwareBytes(1000, 9), 'again.bin');
    const taken = await operator.post('/otaFile/insert', {
      uploadId: again,
      otaVersion: '9.1.0',
      fitMachineTypeId: types.join(','),
    });
    expect(taken.body).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'ota.versionTaken' });
    // The upload stays usable, in the bucket (the instance's disk holds nothing of it).
    expect(s3.objects()).toEqual([`files/${row.stored_path}`, `uploads/${again}`, `uploads/${again}.info`]);
    expect(localFiles()).toEqual([]);
    const cancelled = await fetch(`${server.url}/upload/tus/${again}`, {
      method: 'DELETE',
      headers: { ...session(), 'tus-resumable': '1.0.0' },
    });
    expect(cancelled.status).toBe(204);
    expect(s3.objects()).toEqual([`files/${row.stored_path}`]);
    expect(localFiles()).toEqual([]);

    const panel = await enroll(server.url, 'S3-PANEL', await enrollmentSecretOf(operator));
    const other = await enroll(server.url, 'S3-OTHER', await enrollmentSecretOf(operator));
    const registered = { path: row.stored_path, size: content.length, sha256: sha256(content) };
    const signed = server.app.devices.downloads.signedUrl(registered, 'S3-PANEL');
    const url = `${server.url}${new URL(signed.url).pathname}${new URL(signed.url).search}`;
    const auth = (serial: string, password: string) => ({
      authorization: `Basic ${Buffer.from(`${serial}:${password}`).toString('base64')}`,
    });

    // The server checks the panel's link, then sends it to the bucket for a few minutes.
    const redirect = await fetch(url, { headers: auth('S3-PANEL', panel.password), redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location')!);
    expect(location.origin).toBe(s3.endpoint);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect((await fetch(url, { headers: auth('S3-OTHER', other.password), redirect: 'manual' })).status).toBe(
      403,
    );
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(401);
    // HEAD is answered by the server itself (a presigned GET does not sign HEAD).
    const head = await fetch(url, { method: 'HEAD', headers: auth('S3-PANEL', panel.password) });
    expect([head.status, Number(head.headers.get('content-length'))]).toEqual([200, content.length]);

    // Followed as a panel follows it: the credentials stay with the server, the Range goes on.
    const tail = await fetch(url, {
      headers: { ...auth('S3-PANEL', panel.password), range: 'bytes=1000000-' },
    });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes 1000000-${content.length - 1}/${content.length}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(content.subarray(1_000_000))).toBe(true);

    // The simulator's downloader (the protocol's panel): whole file, SHA-256 checked.
    const result = await downloadVerified({
      url,
      size: content.length,
      sha256: sha256(content),
      username: 'S3-PANEL',
      password: panel.password,
      progress: () => undefined,
      maxAttempts: 1,
    });
    expect(result).toMatchObject({ ok: true });

    expect((await operator.post('/otaFile/delete', { otaFileId: String(fileId) })).body).toMatchObject({
      hhtStatus: 'success',
    });
    expect(s3.objects()).toEqual([]);
    // A link to a deleted file finds nothing.
    expect((await fetch(url, { headers: auth('S3-PANEL', panel.password), redirect: 'manual' })).status).toBe(
      404,
    );
  });

  it('materials: audio and an image with its thumbnail live in the bucket; served, registered for panels, deleted', async () => {
    const tone = wavTone(1);
    const audio = await uploadMaterial('bell.wav', tone, materials.MATERIAL_FILE_TYPES.audio);
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#228844' } })
      .png()
      .toBuffer();
    const image = await uploadMaterial('poster.png', png, materials.MATERIAL_FILE_TYPES.image);
    expect(image.hasThumbnail).toBe(true);
    const rows = await server.app.db.kysely.selectFrom('materials').select(['id', 'stored_name']).execute();
    const stored = new Map(rows.map((r) => [r.id, r.stored_name]));
    expect(s3.objects()).toEqual(
      [
        `files/materials/${stored.get(audio.materialId)}`,
        `files/materials/${stored.get(image.materialId)}`,
        `files/materials/thumbs/${stored.get(image.materialId)!.split('.')[0]}.webp`,
      ].sort(),
    );
    expect(localFiles()).toEqual([]);
    const pageOf = materials.pageMaterials.reply.parse(
      (await operator.get('/material/pageMaterial?start=1&size=10')).body,
    );
    expect(pageOf.listObject.map((m) => m.materialId).sort()).toEqual(
      [audio.materialId, image.materialId].sort(),
    );

    // The console's <audio> seeks with ranges; the server streams from the bucket.
    const part = await fetch(`${server.url}/material/file?materialId=${audio.materialId}`, {
      headers: { ...session(), range: 'bytes=100-199' },
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(tone.subarray(100, 200))).toBe(true);
    const thumb = await fetch(`${server.url}/material/thumbnail?materialId=${image.materialId}`, {
      headers: session(),
    });
    expect(thumb.status).toBe(200);
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(320);

    // A notification's audio is registered for panels: read back from the bucket and hashed.
    const registered = await server.app.devices.downloads.register({
      path: `materials/${stored.get(audio.materialId)}`,
      size: tone.length,
      sha256: sha256(tone),
    });
    expect(registered.sha256).toBe(sha256(tone));

    for (const id of [audio.materialId, image.materialId])
      expect(
        (await operator.post('/material/deleteMaterial', { materialId: String(id) })).body,
      ).toMatchObject({
        hhtStatus: 'success',
      });
    expect(s3.objects()).toEqual([]);
  });

  it('APKs: the package and its icon in the bucket; a refused version stores nothing and keeps its upload', async () => {
    const signer = apkSigner('CN=S3 test');
    const uploadApk = async (content: Buffer) => {
      const t = tusTarget(server.url, operator);
      const created = await tusCreate(t, content.length, 'app.apk', 'apk');
      expect((await tusPatch(t, created.uploadId!, 0, content)).status).toBe(204);
      return created.uploadId!;
    };
    const spec = (versionCode: number) => ({
      packageName: 'com.panel.s3',
      versionCode,
      versionName: `1.${versionCode}`,
      label: 'S3 app',
    });
    const first = await operator.post('/apkUpgrade/uploadApkPackage', {
      uploadId: await uploadApk(await buildApk(spec(5), signer)),
      mark: 'PF-S3-2026-X',
      remark: 'first',
    });
    if (first.body.hhtStatus !== 'success') throw new Error(first.text);
    const card = apk.uploadApk.reply.parse(first.body).dataObject;
    const [version] = await server.app.db.kysely
      .selectFrom('apk_versions')
      .select(['stored_path', 'icon_path'])
      .execute();
    expect(version!.icon_path).not.toBe('');
    expect(s3.objects()).toEqual([`files/${version!.stored_path}`, `files/${version!.icon_path}`].sort());
    expect(localFiles()).toEqual([]);
    const icon = await fetch(`${server.url}/apkUpgrade/icon?kind=version&id=${card.apkVersionId}`, {
      headers: session(),
    });
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await icon.arrayBuffer())).metadata()).format).toBe('png');

    // Not higher than the card's version: refused; the bucket unchanged, the upload still there to retry.
    const lower = await uploadApk(await buildApk(spec(4), signer));
    const refused = await operator.post('/apkUpgrade/uploadNewApkPackage', {
      uploadId: lower,
      apkMarkId: String(card.apkMarkId),
      remark: 'older',
    });
    expect(refused.body).toMatchObject({ hhtStatus: 'fail' });
    expect(s3.objects()).toEqual(
      [
        `files/${version!.stored_path}`,
        `files/${version!.icon_path}`,
        `uploads/${lower}`,
        `uploads/${lower}.info`,
      ].sort(),
    );
    // The copy the APK was read from is gone from the work directory.
    expect(localFiles()).toEqual([]);

    expect(
      (await operator.post('/apkUpgrade/deleteApkUpgrade', { apkVersionId: String(card.apkVersionId) })).body,
    ).toMatchObject({ hhtStatus: 'success' });
    expect(s3.objects()).toEqual([`uploads/${lower}`, `uploads/${lower}.info`]);
    const cancelled = await fetch(`${server.url}/upload/tus/${lower}`, {
      method: 'DELETE',
      headers: { ...session(), 'tus-resumable': '1.0.0' },
    });
    expect(cancelled.status).toBe(204);
    expect(s3.objects()).toEqual([]);
    expect(localFiles()).toEqual([]);
  });

  it('avatars: the new one in the bucket, the old one deleted', async () => {
    const send = async (color: string) => {
      const form = new FormData();
      const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: color } })
        .jpeg()
        .toBuffer();
      form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'me.jpg');
      const response = await fetch(`${server.url}/platform/user/uploadAvatar`, {
        method: 'POST',
        headers: session(),
        body: form,
      });
      return ((await response.json()) as { dataObject: { avatar: string } }).dataObject.avatar;
    };
    await send('#ff0000');
    const second = await send('#0000ff');
    expect(s3.objects()).toEqual([`avatars/${second}`]);
    const image = await fetch(`${server.url}/platform/user/avatar`, { headers: session() });
    expect(image.status).toBe(200);
    expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(150);
    expect(localFiles()).toEqual([]);
    expect(s3.pendingUploads()).toEqual([]);
  });
});
