import fs from 'node:fs';
import path from 'node:path';
import { materials, programs } from '@panelfleet/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_USERS, seedAccounts } from '../src/dev/seed-accounts.js';
import { detectImageFormat, detectVideoFormat } from '../src/modules/materials/media-type.js';
import { AUDIO_SAMPLES, TEXT_FILE, wavTone } from './audio-fixtures.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

/** A tiny MP4 (ISO base media) head: enough for the content check, which reads the container's brand. */
const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2', 'latin1'),
  Buffer.alloc(2048, 7),
]);
const WEBM_HEAD = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]),
  Buffer.from('B\x82\x84webm', 'latin1'),
  Buffer.alloc(512, 1),
]);
const M4A_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypM4A ', 'latin1'),
  Buffer.alloc(64),
]);

const roleUsers = [
  ...SAMPLE_USERS,
  { userName: 'creator1', password: 'creator123', userType: '4' as const, programRole: 0 },
  { userName: 'creator2', password: 'creator123', userType: '4' as const, programRole: 0 },
  { userName: 'level1a', password: 'level1123', userType: '4' as const, programRole: 1 },
  { userName: 'level1b', password: 'level1123', userType: '4' as const, programRole: 1 },
  { userName: 'level2a', password: 'level2123', userType: '4' as const, programRole: 2 },
];

describe('program media recognised by content', () => {
  it('knows images and videos by their first bytes, not audio-only MP4 or text', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    expect(detectImageFormat(png)).toBe('png');
    expect(detectImageFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpg');
    expect(detectImageFormat(Buffer.from('GIF89a....', 'latin1'))).toBe('gif');
    expect(detectImageFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(detectVideoFormat(MP4_HEAD)).toBe('mp4');
    expect(detectVideoFormat(WEBM_HEAD)).toBe('webm');
    expect(detectVideoFormat(M4A_HEAD)).toBeUndefined();
    expect(detectVideoFormat(TEXT_FILE)).toBeUndefined();
    expect(detectVideoFormat(png)).toBeUndefined();
  });
});

describe.each(backends)('programs and their approval on %s', (backend) => {
  let server: TestServer;
  let creator: TestClient;
  let creator2: TestClient;
  let level1: TestClient;
  let level1b: TestClient;
  let level2: TestClient;
  let foreign: TestClient;
  let png: Buffer;
  let imageId: number;
  let videoId: number;
  let audioId: number;

  const folder = () => path.join(server.dataDir, 'files', 'materials');
  const storedFiles = () => fs.readdirSync(folder(), { recursive: true }).map(String).sort();

  const upload = async (client: TestClient, name: string, bytes: Buffer, fileType: string) => {
    const form = new FormData();
    form.append('fileType', fileType);
    form.append('uiFile', new Blob([bytes]), name);
    const response = await fetch(`${server.url}/material/insertMaterial`, {
      method: 'POST',
      headers: { cookie: `pf_session=${client.cookie('pf_session')}`, 'accept-language': client.language },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const uploaded = async (client: TestClient, name: string, bytes: Buffer, fileType: string) =>
    materials.insertMaterial.reply.parse((await upload(client, name, bytes, fileType)).body).dataObject;

  const playlist = () =>
    JSON.stringify([
      { type: 'image', materialId: imageId, duration: 10 },
      { type: 'video', materialId: videoId, duration: 30 },
      { type: 'web', url: 'https://example.com/menu', duration: 15 },
    ]);
  const create = async (client: TestClient, fields: Record<string, string> = {}) =>
    client.post('/program/insert', { name: 'Lobby loop', playTime: '3600', content: playlist(), ...fields });
  const created = async (client: TestClient = creator) => {
    const reply = await create(client);
    return programs.insertProgram.reply.parse(reply.body).dataObject.programId;
  };
  const act = (client: TestClient, programId: number, status: '0' | '1', reason = 'fine') =>
    client.post('/approval/approvalProcess', { programId: String(programId), status, reason });
  const statusOf = async (programId: number) =>
    (
      await server.app.db.kysely
        .selectFrom('programs')
        .select('status')
        .where('id', '=', programId)
        .executeTakeFirstOrThrow()
    ).status;
  const steps = async (client: TestClient, programId: number) =>
    programs.listApproval.reply.parse(
      (await client.get(`/approval/listApproval?programId=${programId}`)).body,
    ).listObject;
  const fail = (message: string) => ({ hhtStatus: 'fail', hhtMsg: message });

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 }, users: roleUsers },
    );
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-operator', password: 'boperator123', userType: '4', activated: 1 },
    ]);
    [creator, creator2, level1, level1b, level2, foreign] = await Promise.all([
      signedIn(server, 'creator1', 'creator123'),
      signedIn(server, 'creator2', 'creator123'),
      signedIn(server, 'level1a', 'level1123'),
      signedIn(server, 'level1b', 'level1123'),
      signedIn(server, 'level2a', 'level2123'),
      signedIn(server, 'b-operator', 'boperator123'),
    ]);
    png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    imageId = (await uploaded(creator, 'poster.png', png, '1')).materialId;
    videoId = (await uploaded(creator, 'clip.mp4', MP4_HEAD, '3')).materialId;
    audioId = (await uploaded(creator, 'bell.wav', wavTone(0.2), '2')).materialId;
  });
  afterAll(() => server.stop());

  it('keeps images with a thumbnail and videos beside audio, each listed by its file type', async () => {
    const list = async (fileType: number) =>
      materials.listMaterials.reply
        .parse((await creator.get(`/material/listMaterial?fileType=${fileType}`)).body)
        .listObject.map((m) => m.materialId);
    expect(await list(1)).toEqual([imageId]);
    expect(await list(3)).toEqual([videoId]);
    expect(await list(2)).toEqual([audioId]);
    const thumb = await fetch(`${server.url}/material/thumbnail?materialId=${imageId}`, {
      headers: { cookie: `pf_session=${creator.cookie('pf_session')}` },
    });
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 180 });
    const video = await fetch(`${server.url}/material/file?materialId=${videoId}`, {
      headers: { cookie: `pf_session=${creator.cookie('pf_session')}` },
    });
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const foreignThumb = await foreign.get(`/material/thumbnail?materialId=${imageId}`);
    expect(foreignThumb.body).toMatchObject(fail('No such material'));
  });

  it('refuses media whose content is not what the file type says, keeping nothing', async () => {
    const before = storedFiles();
    const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(400, 0x55)]);
    const cases: Array<[string, Buffer, string, string]> = [
      ['notes.png', TEXT_FILE, '1', 'The file must be a png, jpg, gif or webp image'],
      ['clip.png', MP4_HEAD, '1', 'The file must be a png, jpg, gif or webp image'],
      ['poster.txt', png, '1', 'The file must be a png, jpg, gif or webp image'],
      ['broken.png', broken, '1', 'The image cannot be read; it is damaged or not an image'],
      ['poster.mp4', png, '3', 'The file must be an mp4, webm, mkv, avi or mov video'],
      ['song.mp4', M4A_HEAD, '3', 'The file must be an mp4, webm, mkv, avi or mov video'],
      ['tone.mp4', AUDIO_SAMPLES.wav!, '3', 'The file must be an mp4, webm, mkv, avi or mov video'],
      ['poster.png', png, '7', 'The file type must be 1 (image), 2 (audio) or 3 (video)'],
      [
        'big.png',
        Buffer.concat([png, Buffer.alloc(materials.IMAGE_MAX_BYTES)]),
        '1',
        'The file may be at most 20 MB',
      ],
    ];
    for (const [name, bytes, fileType, message] of cases) {
      const reply = await upload(creator, name, bytes, fileType);
      expect(reply.body, name).toMatchObject(fail(message));
      expect(reply.status, name).toBeLessThan(500);
    }
    expect(storedFiles()).toEqual(before);
  });

  it('checks a program before storing it: name, play time, playlist, materials of the company', async () => {
    const before = (await server.app.db.kysely.selectFrom('programs').selectAll().execute()).length;
    const foreignImage = (await uploaded(foreign, 'theirs.png', png, '1')).materialId;
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: '  ' }, 'Please enter the program name'],
      [{ playTime: '' }, "Please enter the program's play time"],
      [{ playTime: '0' }, 'The play time must be a whole number of seconds from 1 to 604800'],
      [{ playTime: 'abc' }, 'The play time must be a whole number of seconds from 1 to 604800'],
      [{ content: '[]' }, 'Add at least one item to the playlist'],
      [{ content: '{not json' }, "The program's playlist is not valid"],
      [
        { content: JSON.stringify([{ type: 'web', url: 'javascript:alert(1)', duration: 5 }]) },
        'A web page address must start with http:// or https://',
      ],
      [
        { content: JSON.stringify([{ type: 'web', url: 'https://example.com', duration: 0 }]) },
        "Each item's duration must be a whole number of seconds from 1 to 86400",
      ],
      [
        { content: JSON.stringify([{ type: 'image', materialId: foreignImage, duration: 5 }]) },
        'A material of the playlist does not exist',
      ],
      [
        { content: JSON.stringify([{ type: 'image', materialId: audioId, duration: 5 }]) },
        'A playlist item names a material of another kind (an image item must name an image)',
      ],
      [{ materialIds: String(audioId) }, 'A material of the playlist does not exist'],
    ];
    for (const [fields, message] of cases)
      expect((await create(creator, fields)).body, JSON.stringify(fields)).toMatchObject(fail(message));
    const zh = await signedIn(server, 'creator1', 'creator123', 'zh-CN');
    expect((await create(zh, { name: '' })).body).toMatchObject(fail('请填写节目名称'));
    expect((await create(zh, { playTime: '' })).body).toMatchObject(fail('请填写节目播放时长'));
    expect((await create(level1)).body).toMatchObject(
      fail('Only program creators (program role 0) may create, edit, delete and publish programs'),
    );
    expect((await create(level1)).status).toBe(403);
    expect((await server.app.db.kysely.selectFrom('programs').selectAll().execute()).length).toBe(before);
  });

  it('walks the approval in order, by role, refusing every other step', async () => {
    const id = await created();
    const program = programs.listPrograms.reply
      .parse((await level1.get('/program/listProgram?start=1&size=10')).body)
      .listObject.find((p) => p.programId === id)!;
    expect(program).toMatchObject({ status: 'create', playTime: 3600, name: 'Lobby loop', lastStep: null });
    expect(program.items.map((i) => i.type)).toEqual(['image', 'video', 'web']);
    expect(program.media.map((m) => m.fileName).sort()).toEqual(['clip.mp4', 'poster.png']);
    expect(await steps(level1, id)).toEqual([]);

    // draft: only a creator submits, with status 1 and a reason of at most 200 characters
    expect((await act(level1, id, '1')).body).toMatchObject(
      fail('This program is a draft: only its creators (program role 0) submit it'),
    );
    expect((await act(level2, id, '1')).body.hhtStatus).toBe('fail');
    expect((await act(creator, id, '0')).body).toMatchObject(fail('A program is submitted with status 1'));
    expect((await act(creator, id, '1', ' ')).body).toMatchObject(fail('A reason is required'));
    expect((await act(creator, id, '1', 'x'.repeat(201))).body).toMatchObject(
      fail('The reason may be at most 200 characters'),
    );
    expect((await act(creator, id, '1', 'please review')).body).toMatchObject({
      hhtStatus: 'success',
      dataObject: { status: 'submitApproval' },
    });

    // submitted: level 2 may not skip level 1; nobody edits or deletes it meanwhile
    expect((await act(level2, id, '1')).body).toMatchObject(
      fail('This program waits for a first-level approver (program role 1)'),
    );
    expect((await act(creator, id, '1')).body.hhtStatus).toBe('fail');
    expect(
      (
        await creator.post('/program/update', {
          programId: String(id),
          name: 'x',
          playTime: '60',
          content: playlist(),
        })
      ).body,
    ).toMatchObject(fail('A program under review cannot be edited or deleted'));
    expect((await creator.post('/program/delete', { programId: String(id) })).body).toMatchObject(
      fail('A program under review cannot be edited or deleted'),
    );
    expect((await act(level1, id, '1', '一级审批已通过')).body.hhtStatus).toBe('success');

    // passed level 1: only level 2 acts; a refusal returns the program to its creator
    expect((await act(level1, id, '1')).body).toMatchObject(
      fail('This program waits for a second-level approver (program role 2)'),
    );
    expect((await act(level2, id, '0', 'wrong logo')).body).toMatchObject({
      hhtStatus: 'success',
      dataObject: { status: 'create' },
    });
    expect(await statusOf(id)).toBe('create');
    const refused = await steps(creator, id);
    expect(refused.map((s) => [s.role, s.status, s.reason, s.userName])).toEqual([
      ['0', 1, 'please review', 'creator1'],
      ['1', 1, '一级审批已通过', 'level1a'],
      ['2', 0, 'wrong logo', 'level2a'],
    ]);

    // the refusal stays visible after an edit; a new submission starts a new round
    const edited = await creator.post('/program/update', {
      programId: String(id),
      name: 'Lobby loop v2',
      playTime: '1800',
      content: playlist(),
    });
    expect(edited.body).toMatchObject({ hhtStatus: 'success', hhtMsg: 'Program saved' });
    expect((await steps(creator, id)).at(-1)).toMatchObject({ role: '2', status: 0 });
    expect((await act(creator, id, '1', 'logo fixed')).body.hhtStatus).toBe('success');
    expect((await steps(creator, id)).map((s) => s.reason)).toEqual(['logo fixed']);
    expect((await act(level1, id, '1', 'ok')).body.hhtStatus).toBe('success');
    expect((await act(level2, id, '1', '二级审批已通过')).body).toMatchObject({
      hhtStatus: 'success',
      dataObject: { status: 'approval2' },
    });
    expect((await steps(level2, id)).map((s) => [s.role, s.status])).toEqual([
      ['0', 1],
      ['1', 1],
      ['2', 1],
    ]);
    expect((await act(level2, id, '1')).body).toMatchObject(
      fail('This program is already approved; an edit sends it back for approval'),
    );

    // an edit after approval needs approval again, in an empty round
    const again = await creator2.post('/program/update', {
      programId: String(id),
      name: 'Lobby loop v3',
      playTime: '1800',
      content: playlist(),
    });
    expect(again.body).toMatchObject({
      hhtStatus: 'success',
      hhtMsg: 'Program saved; it needs approval again',
    });
    expect(await statusOf(id)).toBe('create');
    expect(await steps(creator, id)).toEqual([]);

    // every step recorded, with who, when and why
    const all = await server.app.db.kysely
      .selectFrom('approval_steps')
      .selectAll()
      .where('program_id', '=', id)
      .orderBy('id')
      .execute();
    expect(all.map((s) => `${s.from_status}->${s.to_status}`)).toEqual([
      'create->submitApproval',
      'submitApproval->approval1',
      'approval1->create',
      'create->submitApproval',
      'submitApproval->approval1',
      'approval1->approval2',
    ]);
    expect(all.every((s) => s.added_at > 0 && s.user_name.length > 0)).toBe(true);
  });

  it('answers in Chinese as the spec says', async () => {
    const zh = await signedIn(server, 'level1a', 'level1123', 'zh-CN');
    const id = await created();
    expect((await act(zh, id, '1', '')).body).toMatchObject(fail('原因必须填'));
    expect((await act(zh, id, '1', 'ok')).body).toMatchObject(
      fail('该节目为草稿，只能由创建者（节目角色 0）提交审核'),
    );
  });

  it('never lets the creator or last editor approve, even with an approver role', async () => {
    const id = await created(creator);
    expect((await act(creator2, id, '1', 'submit')).body.hhtStatus).toBe('success');
    const creatorId = server.accounts.userIds.creator1!;
    await server.app.db.kysely
      .updateTable('users')
      .set({ program_role: 1 })
      .where('id', '=', creatorId)
      .execute();
    try {
      expect((await act(creator, id, '1')).body).toMatchObject(
        fail('You created or last edited this program: another user must approve it'),
      );
      expect(await statusOf(id)).toBe('submitApproval');
    } finally {
      await server.app.db.kysely
        .updateTable('users')
        .set({ program_role: 0 })
        .where('id', '=', creatorId)
        .execute();
    }
  });

  it('lets exactly one of two approvers acting at once win', async () => {
    for (let round = 0; round < 4; round++) {
      const id = await created();
      expect((await act(creator, id, '1', 'submit')).body.hhtStatus).toBe('success');
      const [a, b] = await Promise.all([act(level1, id, '1', 'pass A'), act(level1b, id, '0', 'refuse B')]);
      const winners = [a, b].filter((r) => r.body.hhtStatus === 'success');
      expect(winners.length, `round ${round}`).toBe(1);
      const loser = [a, b].find((r) => r.body.hhtStatus === 'fail')!;
      expect([
        'Someone else changed this program just now; refresh and try again',
        'This program waits for a second-level approver (program role 2)',
        'This program is a draft: only its creators (program role 0) submit it',
      ]).toContain(loser.body.hhtMsg);
      const recorded = await server.app.db.kysely
        .selectFrom('approval_steps')
        .select('role')
        .where('program_id', '=', id)
        .execute();
      expect(recorded.map((r) => r.role).sort()).toEqual([0, 1]);
    }
  });

  it('keeps programs inside their company and materials in use', async () => {
    const id = await created();
    expect(
      programs.listPrograms.reply
        .parse((await foreign.get('/program/listProgram?start=1&size=100')).body)
        .listObject.map((p) => p.programId),
    ).not.toContain(id);
    expect((await foreign.get(`/approval/listApproval?programId=${id}`)).body).toMatchObject(
      fail('No such program'),
    );
    expect((await foreign.post('/program/delete', { programId: String(id) })).body).toMatchObject(
      fail('No such program'),
    );
    expect(
      (await creator.post('/material/deleteMaterial', { materialId: String(imageId) })).body,
    ).toMatchObject(fail('A program plays this material: remove it from the program first'));
    expect((await creator.post('/program/delete', { programId: String(id) })).body).toMatchObject({
      hhtStatus: 'success',
      hhtMsg: 'Program deleted',
    });
    expect(
      programs.listPrograms.reply
        .parse((await creator.get('/program/listProgram?start=1&size=5&name=LOBBY')).body)
        .listObject.every((p) => p.name.toLowerCase().includes('lobby')),
    ).toBe(true);
  });
});
