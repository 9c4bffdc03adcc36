import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { materials } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { tusCreate, tusOffset, tusPatch, tusTarget, tusUpload } from './ota-helpers.js';

/** An MP4 (ISO base media) head followed by bytes: what the content check recognises. */
function mp4(size: number, seed = 1) {
  const head = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'latin1'),
  ]);
  const body = Buffer.alloc(size - head.length);
  let block = crypto.createHash('sha256').update(String(seed)).digest();
  for (let i = 0; i < body.length; i += 32) {
    block.copy(body, i, 0, Math.min(32, body.length - i));
    block = crypto.createHash('sha256').update(block).digest();
  }
  return Buffer.concat([head, body]);
}

// Video materials through the resumable upload (tus, kind `video`) and /material/insertVideo.
describe.each(backends)('resumable video materials on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let company: TestClient;
  let manager: TestClient;
  let foreign: TestClient;

  const folder = () => path.join(server.dataDir, 'files', 'materials');
  // Folders of the store appear with their first file; the work directory must stay empty.
  const listed = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  const storedFiles = () => [
    ...listed(folder()).filter((n) => n !== 'thumbs'),
    ...listed(path.join(server.dataDir, 'tmp', 'materials')),
  ];
  const uploadFiles = () => fs.readdirSync(path.join(server.dataDir, 'uploads'));
  const videos = async (client: TestClient) =>
    materials.listMaterials.reply.parse((await client.get('/material/listMaterial?fileType=3')).body)
      .listObject;
  const insert = (client: TestClient, uploadId: string) => client.post('/material/insertVideo', { uploadId });
  const fail = (message: string) => ({ hhtStatus: 'fail', hhtMsg: message });

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4', activated: 1 },
    ]);
    [operator, company, manager, foreign] = await Promise.all([
      signedIn(server, 'operator1', 'operator123'),
      signedIn(server, 'customer1', 'customer123'),
      signedIn(server, 'manager1', 'manager123'),
      signedIn(server, 'b-operator', 'boperator123'),
    ]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a cut upload resumes from the bytes the server holds; the partial video is never listed', async () => {
    const video = mp4(3 * 1024 * 1024 + 17);
    const t = tusTarget(server.url, operator);
    const created = await tusCreate(t, video.length, 'lobby.mp4', 'video');
    expect(created.response.status).toBe(201);
    const id = created.uploadId!;
    // The first megabyte arrives, then the connection is cut.
    expect(await tusPatch(t, id, 0, video.subarray(0, 1024 * 1024))).toEqual({
      status: 204,
      offset: 1024 * 1024,
    });
    // Not finished: no material can be made of it, and none is listed.
    expect((await insert(operator, id)).body).toMatchObject(fail('The upload has not finished yet'));
    expect(await videos(operator)).toEqual([]);
    expect(storedFiles()).toEqual([]);

    // The browser asks where to go on (HEAD) and sends the rest from there.
    const { offset } = await tusOffset(t, id);
    expect(offset).toBe(1024 * 1024);
    for (let at = offset; at < video.length;) {
      const next = await tusPatch(t, id, at, video.subarray(at, at + 1024 * 1024));
      expect(next.status).toBe(204);
      at = next.offset;
    }
    const reply = materials.insertVideo.reply.parse((await insert(operator, id)).body);
    expect(reply.dataObject).toMatchObject({
      fileName: 'lobby.mp4',
      fileType: 3,
      format: 'mp4',
      fileSize: video.length,
      sha256: crypto.createHash('sha256').update(video).digest('hex'),
    });
    expect((await videos(operator)).map((m) => m.materialId)).toEqual([reply.dataObject.materialId]);
    // The stored file is exactly the bytes sent; the upload's own files are gone.
    const stored = storedFiles();
    expect(stored).toHaveLength(1);
    expect(fs.readFileSync(path.join(folder(), stored[0]!)).equals(video)).toBe(true);
    expect(uploadFiles().filter((n) => n.startsWith(id))).toEqual([]);
    // Once only: the taken upload is gone.
    expect((await insert(operator, id)).body).toMatchObject(
      fail('This upload does not exist or has expired'),
    );
  });

  it('refuses bytes that are not a video, another company’s upload and the wrong users, leaving nothing', async () => {
    const before = (await videos(operator)).length;
    const beforeFiles = storedFiles();
    // Named .mp4, but text inside: refused by content; the upload's bytes are deleted.
    const text = await tusUpload(tusTarget(server.url, operator), Buffer.alloc(4096, 'a'), 'fake.mp4');
    expect(text).toMatch(/^[0-9a-f]{32}$/);
    // (tusUpload creates firmware uploads: the kind must be video.)
    expect((await insert(operator, text)).body).toMatchObject(
      fail('This upload does not exist or has expired'),
    );

    const t = tusTarget(server.url, operator);
    const fake = await tusCreate(t, 4096, 'fake.mp4', 'video');
    expect((await tusPatch(t, fake.uploadId!, 0, Buffer.alloc(4096, 'a'))).status).toBe(204);
    expect((await insert(operator, fake.uploadId!)).body).toMatchObject({ hhtStatus: 'fail' });
    expect(uploadFiles().filter((n) => n.startsWith(fake.uploadId!))).toEqual([]);
    const zh = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    const named = await tusCreate(tusTarget(server.url, zh, 'zh-CN'), 4096, 'notes.txt', 'video');
    expect((await tusPatch(t, named.uploadId!, 0, mp4(4096))).status).toBe(204);
    const refusedName = (await insert(zh, named.uploadId!)).body;
    expect(refusedName).toMatchObject({ hhtStatus: 'fail' });
    expect(String(refusedName.hhtMsg)).toMatch(/[\u4e00-\u9fff]/);

    // Another company's finished upload reads as unknown and stays theirs.
    const theirs = tusTarget(server.url, foreign);
    const other = await tusCreate(theirs, 4096, 'theirs.mp4', 'video');
    expect((await tusPatch(theirs, other.uploadId!, 0, mp4(4096, 2))).status).toBe(204);
    expect((await insert(operator, other.uploadId!)).body).toMatchObject(
      fail('This upload does not exist or has expired'),
    );
    expect((await tusOffset(t, other.uploadId!)).status).toBe(404);

    // A customer manager (user type 3) may upload firmware but not videos.
    const refused = await tusCreate(tusTarget(server.url, manager), 4096, 'clip.mp4', 'video');
    expect(refused.response.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject(fail('You may not upload this kind of file'));
    expect((await insert(operator, 'f'.repeat(32))).body).toMatchObject(
      fail('This upload does not exist or has expired'),
    );
    expect((await insert(operator, '../x')).body).toMatchObject(
      fail('This upload does not exist or has expired'),
    );

    expect((await videos(operator)).length).toBe(before);
    expect(storedFiles()).toEqual(beforeFiles);
    // Their upload is still theirs to use.
    ok(await insert(foreign, other.uploadId!));
  });

  it('the company account uploads videos too; two takers of one upload: exactly one video', async () => {
    const video = mp4(512 * 1024, 3);
    const t = tusTarget(server.url, company);
    const created = await tusCreate(t, video.length, 'hall.mp4', 'video');
    expect(created.response.status).toBe(201);
    expect((await tusPatch(t, created.uploadId!, 0, video)).status).toBe(204);
    const before = (await videos(company)).length;
    const replies = await Promise.all([
      insert(company, created.uploadId!),
      insert(operator, created.uploadId!),
    ]);
    expect(replies.filter((r) => r.body.hhtStatus === 'success')).toHaveLength(1);
    expect((await videos(company)).length).toBe(before + 1);
  });

  function ok(reply: { body: Record<string, unknown>; text: string }) {
    if (reply.body.hhtStatus !== 'success') throw new Error(reply.text);
  }
});
