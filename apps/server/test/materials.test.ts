import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { materials } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { detectAudioFormat, headBytesNeeded } from '../src/modules/materials/audio-type.js';
import {
  AUDIO_SAMPLES,
  ID3_THEN_TEXT,
  JPEG_FILE,
  MP3_WITH_LARGE_TAG,
  PNG_FILE,
  TEXT_FILE,
  wavTone,
} from './audio-fixtures.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

describe('audio recognised by content', () => {
  it('knows every allowed format by its first bytes', () => {
    for (const [format, bytes] of Object.entries(AUDIO_SAMPLES))
      expect(detectAudioFormat(bytes), format).toBe(format);
  });

  it('looks past an ID3 tag, and wants the bytes after it', () => {
    expect(headBytesNeeded(MP3_WITH_LARGE_TAG)).toBeGreaterThan(100_000);
    expect(detectAudioFormat(MP3_WITH_LARGE_TAG)).toBe('mp3');
    expect(detectAudioFormat(ID3_THEN_TEXT)).toBeUndefined();
  });

  it('refuses text, images and empty files', () => {
    for (const bytes of [TEXT_FILE, PNG_FILE, JPEG_FILE, Buffer.alloc(0), Buffer.from('RIFF1234AVI LIST')])
      expect(detectAudioFormat(bytes)).toBeUndefined();
  });
});

describe.each(backends)('audio materials on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let otherCustomer: TestClient;

  const folder = () => path.join(server.dataDir, 'files', 'materials');
  const storedFiles = () => fs.readdirSync(folder());
  const rows = () => server.app.db.kysely.selectFrom('materials').selectAll().execute();

  const upload = async (
    client: TestClient,
    name: string,
    bytes: Buffer,
    fields: Record<string, string> = { fileType: '2' },
  ) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('uiFile', new Blob([bytes]), name);
    const response = await fetch(`${server.url}/material/insertMaterial`, {
      method: 'POST',
      headers: { cookie: `pf_session=${client.cookie('pf_session')}`, 'accept-language': client.language },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const list = async (client: TestClient) =>
    materials.listMaterials.reply.parse((await client.get('/material/listMaterial?fileType=2')).body)
      .listObject;

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
    ]);
    operator = await signedIn(server, 'operator1', 'operator123');
    otherCustomer = await signedIn(server, 'b-customer', 'bcustomer123');
  });
  afterAll(() => server.stop());

  it('stores an upload under a generated name with its SHA-256, lists it, serves it back and deletes it', async () => {
    const tone = wavTone(1);
    const reply = await upload(operator, 'School bell.wav', tone);
    const stored = materials.insertMaterial.reply.parse(reply.body).dataObject;
    expect(stored).toMatchObject({
      fileName: 'School bell.wav',
      fileType: 2,
      format: 'wav',
      fileSize: tone.length,
      sha256: crypto.createHash('sha256').update(tone).digest('hex'),
    });
    expect((await list(operator)).map((m) => m.materialId)).toContain(stored.materialId);
    const [row] = (await rows()).filter((r) => r.id === stored.materialId);
    expect(row!.stored_name).toMatch(/^[a-f0-9]{32}\.wav$/);
    expect(fs.readFileSync(path.join(folder(), row!.stored_name)).equals(tone)).toBe(true);

    const file = await fetch(`${server.url}/material/file?materialId=${stored.materialId}`, {
      headers: { cookie: `pf_session=${operator.cookie('pf_session')}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await file.arrayBuffer()).equals(tone)).toBe(true);
    // The <audio> element seeks with ranges.
    const part = await fetch(`${server.url}/material/file?materialId=${stored.materialId}`, {
      headers: { cookie: `pf_session=${operator.cookie('pf_session')}`, range: 'bytes=100-199' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${tone.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(tone.subarray(100, 200))).toBe(true);
    const past = await fetch(`${server.url}/material/file?materialId=${stored.materialId}`, {
      headers: { cookie: `pf_session=${operator.cookie('pf_session')}`, range: `bytes=${tone.length}-` },
    });
    expect(past.status).toBe(416);

    const log = await server.app.db.kysely
      .selectFrom('operation_logs')
      .select(['action', 'content'])
      .where('action', '=', 'insertMaterial')
      .execute();
    expect(log.at(-1)?.content).toContain('School bell.wav');

    expect(
      (await operator.post('/material/deleteMaterial', { materialId: String(stored.materialId) })).body,
    ).toMatchObject({ hhtStatus: 'success', hhtMsg: 'Audio deleted' });
    expect((await list(operator)).map((m) => m.materialId)).not.toContain(stored.materialId);
    expect(fs.existsSync(path.join(folder(), row!.stored_name))).toBe(false);
  });

  it('takes every allowed format, recognised by content whatever the extension says', async () => {
    for (const [format, bytes] of Object.entries(AUDIO_SAMPLES)) {
      const reply = await upload(operator, `sample.${format}`, bytes);
      expect(materials.insertMaterial.reply.parse(reply.body).dataObject.format).toBe(format);
    }
    // An ogg named .mp3 is still audio of an allowed format: kept as what it is.
    const renamed = materials.insertMaterial.reply.parse(
      (await upload(operator, 'renamed.mp3', AUDIO_SAMPLES.ogg!)).body,
    ).dataObject;
    expect(renamed.format).toBe('ogg');
    const tagged = materials.insertMaterial.reply.parse(
      (await upload(operator, 'tagged.mp3', MP3_WITH_LARGE_TAG)).body,
    ).dataObject;
    expect(tagged).toMatchObject({ format: 'mp3', fileSize: MP3_WITH_LARGE_TAG.length });
  });

  it('refuses wrong content, wrong names, oversize files and other file types, keeping nothing', async () => {
    const before = { rows: (await rows()).length, files: storedFiles().sort() };
    const cases: Array<[string, Buffer, string, Record<string, string>?]> = [
      ['notes.mp3', TEXT_FILE, 'The file must be mp3, wma, wav, amr, aac, ogg, mp4, flac or ape audio'],
      ['photo.wav', PNG_FILE, 'The file must be mp3, wma, wav, amr, aac, ogg, mp4, flac or ape audio'],
      [
        'tag-only.mp3',
        ID3_THEN_TEXT,
        'The file must be mp3, wma, wav, amr, aac, ogg, mp4, flac or ape audio',
      ],
      ['tone.txt', wavTone(0.1), 'The file must be mp3, wma, wav, amr, aac, ogg, mp4, flac or ape audio'],
      ['tone', wavTone(0.1), 'The file must be mp3, wma, wav, amr, aac, ogg, mp4, flac or ape audio'],
      ['empty.wav', Buffer.alloc(0), 'Please choose a file to upload'],
      // One byte over 20 MB: read to the limit, then refused.
      [
        'long.wav',
        Buffer.concat([wavTone(0.1), Buffer.alloc(materials.AUDIO_MAX_BYTES)]),
        'The file may be at most 20 MB',
      ],
      // Far over: refused from the declared length before the body is read.
      [
        'huge.wav',
        Buffer.concat([wavTone(0.1), Buffer.alloc(materials.AUDIO_MAX_BYTES + 2 * 1024 * 1024)]),
        'The file may be at most 20 MB',
      ],
      [
        'tone.wav',
        wavTone(0.1),
        'The file type must be 1 (image), 2 (audio) or 3 (video)',
        { fileType: '4' },
      ],
    ];
    for (const [name, bytes, message, fields] of cases) {
      const reply = await upload(operator, name, bytes, fields);
      expect(reply.body, name).toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
      expect(reply.status, name).toBeLessThan(500);
    }
    const zh = await upload(
      await signedIn(server, 'operator1', 'operator123', 'zh-CN'),
      'notes.mp3',
      TEXT_FILE,
    );
    expect(zh.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: '文件格式必须是 mp3、wma、wav、amr、aac、ogg、mp4、flac 或 ape 音频',
    });
    expect((await rows()).length).toBe(before.rows);
    expect(storedFiles().sort()).toEqual(before.files);
  });

  it('keeps materials inside their company and away from users who do not operate devices', async () => {
    const mine = materials.insertMaterial.reply.parse(
      (await upload(operator, 'ours.wav', wavTone(0.2))).body,
    ).dataObject;
    expect((await list(otherCustomer)).map((m) => m.materialId)).not.toContain(mine.materialId);
    expect(
      (await otherCustomer.post('/material/deleteMaterial', { materialId: String(mine.materialId) })).body,
    ).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'No such material' });
    const foreignFile = await otherCustomer.get(`/material/file?materialId=${mine.materialId}`);
    expect(foreignFile.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'No such material' });
    expect((await operator.post('/material/deleteMaterial', { materialId: '98765' })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such material',
    });

    const manager = await signedIn(server, 'manager1', 'manager123');
    expect((await manager.get('/material/listMaterial?fileType=2')).body.hhtStatus).toBe('fail');
    expect((await upload(manager, 'x.wav', wavTone(0.1))).body.hhtStatus).toBe('fail');
    expect((await list(operator)).map((m) => m.materialId)).toContain(mine.materialId);
  });

  it('pages the materials tab on the server: by type and name, newest first, inside the company', async () => {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 40, b: 40 } },
    })
      .png()
      .toBuffer();
    const made: number[] = [];
    for (const name of ['Tab-Lesson-1.png', 'tab-lesson-2.png', 'Tab-Break_%.png'])
      made.push(
        materials.insertMaterial.reply.parse((await upload(operator, name, png, { fileType: '1' })).body)
          .dataObject.materialId,
      );
    const audio = materials.insertMaterial.reply.parse(
      (await upload(operator, 'tab-bell.wav', wavTone(0.1))).body,
    ).dataObject.materialId;
    await upload(otherCustomer, 'tab-lesson-theirs.wav', wavTone(0.1));
    const page = async (client: TestClient, query: string) =>
      materials.pageMaterials.reply.parse((await client.get(`/material/pageMaterial?${query}`)).body);

    // All types, named "tab-": newest first, two a page, the total over the pages.
    const first = await page(operator, 'fileName=TAB-&size=2&start=1');
    expect(first.totalRecords).toBe(4);
    expect(first.listObject.map((m) => m.materialId)).toEqual([audio, made[2]]);
    const second = await page(operator, 'fileName=TAB-&size=2&start=2');
    expect(second.listObject.map((m) => m.materialId)).toEqual([made[1], made[0]]);
    // Images only, with their thumbnails; a name search takes % literally.
    const images = await page(operator, 'fileType=1&fileName=tab-&size=10');
    expect(images.listObject.map((m) => [m.fileName, m.hasThumbnail])).toEqual([
      ['Tab-Break_%.png', true],
      ['tab-lesson-2.png', true],
      ['Tab-Lesson-1.png', true],
    ]);
    expect((await page(operator, 'fileName=_%25&size=10')).listObject.map((m) => m.materialId)).toEqual([
      made[2],
    ]);
    // The other company sees only its own.
    expect((await page(otherCustomer, 'fileName=tab-&size=10')).listObject.map((m) => m.fileName)).toEqual([
      'tab-lesson-theirs.wav',
    ]);
    // Bad filters are refused in the caller's language; a manager is not a device operator.
    expect((await operator.get('/material/pageMaterial?fileType=7')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The file type must be 1 (image), 2 (audio) or 3 (video)',
    });
    const zh = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    expect((await zh.get(`/material/pageMaterial?fileName=${'x'.repeat(65)}`)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: '名称搜索最多 64 个字符',
    });
    const manager = await signedIn(server, 'manager1', 'manager123');
    expect((await manager.get('/material/pageMaterial')).body.hhtStatus).toBe('fail');
  });
});
