import fs from 'node:fs';
import path from 'node:path';
import { materials, programs } from '@panelfleet/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { SAMPLE_USERS } from '../src/dev/seed-accounts.js';
import { TEXT_FILE } from './audio-fixtures.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

const users = [
  ...SAMPLE_USERS,
  { userName: 'creator1', password: 'creator123', userType: '4' as const, programRole: 0 },
  { userName: 'level1a', password: 'level1123', userType: '4' as const, programRole: 1 },
];

const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2', 'latin1'),
  Buffer.alloc(4096, 7),
]);

interface Entry {
  name: string;
  data: Buffer;
  mode?: number;
  compress?: boolean;
}

/** A zip of these entries, written by yazl (which refuses unsafe names: those are patched in afterwards). */
async function zipOf(entries: Entry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries)
    zip.addBuffer(e.data, e.name, { compress: e.compress ?? true, ...(e.mode ? { mode: e.mode } : {}) });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Replaces every occurrence of a name (same length) in the local and central headers. */
function renamed(zip: Buffer, from: string, to: string): Buffer {
  expect(from.length).toBe(to.length);
  const out = Buffer.from(zip);
  const needle = Buffer.from(from, 'latin1');
  for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 1)) out.write(to, at, 'latin1');
  return out;
}

/** Sets the uncompressed size the central directory declares for an entry (a zip that lies). */
function declaredSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  for (
    let at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    at >= 0;
    at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
  ) {
    const nameLength = out.readUInt16LE(at + 28);
    if (out.toString('latin1', at + 46, at + 46 + nameLength) === name) out.writeUInt32LE(size, at + 24);
  }
  return out;
}

const manifest = (items: unknown[], extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({ format: 'panelfleet-program', v: 1, name: 'Imported', playTime: 600, items, ...extra }),
  );

describe.each(backends)('program zips on %s', (backend) => {
  let server: TestServer;
  let creator: TestClient;
  let approver: TestClient;
  let png: Buffer;

  const materialsFolder = () => path.join(server.dataDir, 'files', 'materials');
  const tempFolder = () => path.join(server.dataDir, 'tmp', 'program-zips');
  const files = () => [
    ...fs.readdirSync(materialsFolder(), { recursive: true }).map(String),
    ...fs.readdirSync(tempFolder(), { recursive: true }).map(String),
  ];
  const counts = async () => ({
    programs: (await server.app.db.kysely.selectFrom('programs').selectAll().execute()).length,
    materials: (await server.app.db.kysely.selectFrom('materials').selectAll().execute()).length,
  });

  const importZip = async (
    client: TestClient,
    bytes: Buffer | undefined,
    name = 'program.zip',
    field = 'importZip',
  ) => {
    const form = new FormData();
    if (bytes) form.append(field, new Blob([bytes]), name);
    else form.append('other', 'x');
    const response = await fetch(`${server.url}/program/importZip`, {
      method: 'POST',
      headers: { cookie: `pf_session=${client.cookie('pf_session')}`, 'accept-language': client.language },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const upload = async (name: string, bytes: Buffer, fileType: string) => {
    const form = new FormData();
    form.append('fileType', fileType);
    form.append('uiFile', new Blob([bytes]), name);
    const response = await fetch(`${server.url}/material/insertMaterial`, {
      method: 'POST',
      headers: { cookie: `pf_session=${creator.cookie('pf_session')}` },
      body: form,
    });
    return materials.insertMaterial.reply.parse(await response.json()).dataObject;
  };

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 }, users },
    );
    [creator, approver] = await Promise.all([
      signedIn(server, 'creator1', 'creator123'),
      signedIn(server, 'level1a', 'level1123'),
    ]);
    png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#c40' } })
      .png()
      .toBuffer();
  });
  afterAll(() => server.stop());

  it('exports an approved program and imports it back as a new draft with new materials', async () => {
    const image = await upload('poster.png', png, '1');
    const video = await upload('clip.mp4', MP4_HEAD, '3');
    const content = JSON.stringify([
      { type: 'image', materialId: image.materialId, duration: 8 },
      { type: 'video', materialId: video.materialId, duration: 20 },
      { type: 'web', url: 'https://example.com/menu', duration: 15 },
    ]);
    const { programId } = programs.insertProgram.reply.parse(
      (await creator.post('/program/insert', { name: 'Round trip', playTime: '900', content })).body,
    ).dataObject;
    expect((await creator.post('/program/exportZip', { programId: String(programId) })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Only a program that passed both approvals may be published',
    });
    await server.app.db.kysely
      .updateTable('programs')
      .set({ status: 'approval2' })
      .where('id', '=', programId)
      .execute();

    const { url } = programs.exportZip.reply.parse(
      (await approver.post('/program/exportZip', { programId: String(programId) })).body,
    ).dataObject;
    const zipped = await fetch(`${server.url}${url}`, {
      headers: { cookie: `pf_session=${creator.cookie('pf_session')}` },
    });
    expect(zipped.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await zipped.arrayBuffer());

    const reply = await importZip(creator, zip, 'Round trip.zip');
    expect(reply.body).toMatchObject({
      hhtStatus: 'success',
      hhtMsg: 'Program imported as a draft with 2 new materials',
    });
    const imported = programs.importZip.reply.parse(reply.body).dataObject;
    const list = programs.listPrograms.reply.parse(
      (await creator.get('/program/listProgram?start=1&size=10')).body,
    ).listObject;
    const copy = list.find((p) => p.programId === imported.programId)!;
    expect(copy).toMatchObject({ name: 'Round trip', playTime: 900, status: 'create' });
    expect(copy.items.map((i) => [i.type, i.duration])).toEqual([
      ['image', 8],
      ['video', 20],
      ['web', 15],
    ]);
    expect(copy.media.map((m) => m.fileName).sort()).toEqual(['clip.mp4', 'poster.png']);
    const newIds = copy.media.map((m) => m.materialId);
    expect(newIds).not.toContain(image.materialId);
    const rows = await server.app.db.kysely
      .selectFrom('materials')
      .select(['id', 'sha256'])
      .where('id', 'in', newIds)
      .execute();
    expect(rows.map((r) => r.sha256).sort()).toEqual([image.sha256, video.sha256].sort());
    expect(fs.readdirSync(tempFolder())).toEqual([]);
  });

  it('refuses every unsafe, oversized, lying or broken zip, storing nothing and leaving no file', async () => {
    const good = [
      { type: 'image', duration: 5, file: 'media/001-poster.png', fileName: 'poster.png' },
      { type: 'web', duration: 5, url: 'https://example.com' },
    ];
    const valid = (extra: Entry[] = [], items: unknown[] = good) => [
      { name: 'program.json', data: manifest(items) },
      { name: 'media/001-poster.png', data: png, compress: false },
      ...extra,
    ];
    const bomb = Buffer.alloc(30 * 1024 * 1024);
    const compressible = Buffer.alloc(3 * 1024 * 1024, 'abcdefgh');
    const cases: Array<[string, Promise<Buffer | undefined>, string, string?]> = [
      ['no file', Promise.resolve(undefined), 'Please upload a zip file'],
      ['not named .zip', zipOf(valid()), 'The file must be a .zip file', 'program.txt'],
      ['not a zip', Promise.resolve(TEXT_FILE), 'The file is not a readable zip'],
      ['empty', Promise.resolve(Buffer.alloc(0)), 'Please upload a zip file'],
      [
        'zip-slip with ..',
        zipOf(valid([{ name: 'xx/evil.png', data: png }])).then((z) =>
          renamed(z, 'xx/evil.png', '../evil.png'),
        ),
        'The zip holds a path outside program.json and media/, an absolute path, “..” or a link',
      ],
      [
        'absolute path',
        zipOf(valid([{ name: 'xtmp/evil.png', data: png }])).then((z) =>
          renamed(z, 'xtmp/evil.png', '/tmp/evil.png'),
        ),
        'The zip holds a path outside program.json and media/, an absolute path, “..” or a link',
      ],
      [
        'backslash path',
        zipOf(valid([{ name: 'media/a_b.png', data: png }])).then((z) =>
          renamed(z, 'media/a_b.png', 'media\\a/b.png'.slice(0, 13)),
        ),
        'The zip holds a path outside program.json and media/, an absolute path, “..” or a link',
      ],
      [
        'symbolic link',
        zipOf(valid([{ name: 'media/002-link.png', data: Buffer.from('/etc/passwd'), mode: 0o120777 }])),
        'The zip holds a path outside program.json and media/, an absolute path, “..” or a link',
      ],
      [
        'folder outside media',
        zipOf(valid([{ name: 'other/x.png', data: png }])),
        'The zip holds a path outside program.json and media/, an absolute path, “..” or a link',
      ],
      [
        'too many entries',
        zipOf(
          valid(
            Array.from({ length: 101 }, (_, i) => ({
              name: `media/extra-${i}.png`,
              data: png,
              compress: false,
            })),
          ),
        ),
        'The zip holds more entries than program.json and 100 media files',
      ],
      [
        'bomb by ratio',
        zipOf(valid([{ name: 'media/002-zero.png', data: bomb }])),
        'The zip inflates beyond its limits (at most 1 GB in all, 200 MB and 100 times its packed size per file)',
      ],
      [
        'declared size smaller than the bytes',
        zipOf([
          {
            name: 'program.json',
            data: manifest([{ type: 'image', duration: 5, file: 'media/001-big.png', fileName: 'big.png' }]),
          },
          { name: 'media/001-big.png', data: Buffer.concat([png, compressible]) },
        ]).then((z) => declaredSize(z, 'media/001-big.png', 1000)),
        'The zip inflates beyond its limits (at most 1 GB in all, 200 MB and 100 times its packed size per file)',
      ],
      [
        'no program.json',
        zipOf([{ name: 'media/001-poster.png', data: png }]),
        'The zip has no program.json',
      ],
      [
        'program.json not JSON',
        zipOf([{ name: 'program.json', data: Buffer.from('{oops') }]),
        "The zip's program.json is not a valid program",
      ],
      [
        'program.json without items',
        zipOf([{ name: 'program.json', data: manifest([]) }]),
        "The zip's program.json is not a valid program",
      ],
      [
        'a script as web page',
        zipOf(valid([], [...good, { type: 'web', duration: 5, url: 'javascript:alert(1)' }])),
        "The zip's program.json is not a valid program",
      ],
      [
        'a file not named',
        zipOf(valid([{ name: 'media/999-extra.png', data: png }])),
        'The zip holds a file program.json does not name',
      ],
      [
        'a named file missing',
        zipOf([{ name: 'program.json', data: manifest(good) }]),
        'A media file named in program.json is missing from the zip',
      ],
      [
        'text claiming to be an image',
        zipOf([
          { name: 'program.json', data: manifest(good) },
          { name: 'media/001-poster.png', data: TEXT_FILE },
        ]),
        'media/001-poster.png is not the image program.json says it is',
      ],
      [
        'an image claiming to be a video',
        zipOf([
          {
            name: 'program.json',
            data: manifest([
              { type: 'video', duration: 5, file: 'media/001-poster.png', fileName: 'clip.mp4' },
            ]),
          },
          { name: 'media/001-poster.png', data: png },
        ]),
        'media/001-poster.png is not the video program.json says it is',
      ],
    ];
    const before = { counts: await counts(), files: files().sort() };
    let rejected = 0;
    for (const [what, bytes, message, name] of cases) {
      const reply = await importZip(creator, await bytes, name);
      expect(reply.body, what).toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
      expect(reply.status, what).toBeLessThan(500);
      if (reply.body.hhtStatus === 'fail') rejected++;
    }
    const stray = files()
      .sort()
      .filter((f) => !before.files.includes(f));
    console.log(`zip refusals: ${rejected} of ${cases.length} rejected, ${stray.length} stray files`);
    expect(stray).toEqual([]);
    expect(await counts()).toEqual(before.counts);

    const zh = await signedIn(server, 'creator1', 'creator123', 'zh-CN');
    expect((await importZip(zh, await zipOf(valid()), 'a.txt')).body).toMatchObject({
      hhtMsg: '文件必须为.zip类型',
    });
    expect((await importZip(zh, undefined)).body).toMatchObject({ hhtMsg: '请上传zip文件' });
    const refused = await importZip(approver, await zipOf(valid()));
    expect(refused.status).toBe(403);
    expect(await counts()).toEqual(before.counts);
  });
});
