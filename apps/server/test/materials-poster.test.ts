import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { materials } from '@panelfleet/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPosterFrame } from '../src/modules/materials/poster.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

/** A real one-second MP4 (a test pattern, 640x360) made by ffmpeg, and an MP4 head with noise after it. */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-poster-'));
const clip = path.join(work, 'clip.mp4');
execFileSync('ffmpeg', [
  '-v',
  'error',
  '-f',
  'lavfi',
  '-i',
  'testsrc=size=640x360:rate=10',
  '-t',
  '1',
  '-c:v',
  'mpeg4',
  '-pix_fmt',
  'yuv420p',
  '-y',
  clip,
]);
const broken = path.join(work, 'broken.mp4');
fs.writeFileSync(
  broken,
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'latin1'),
    Buffer.alloc(8192, 7),
  ]),
);

describe('poster frames by ffmpeg', () => {
  it('reads the first frame of a video as PNG', async () => {
    const frame = await extractPosterFrame(clip, { ffmpegPath: 'ffmpeg', timeoutMs: 15_000 });
    expect(frame.ok).toBe(true);
    const meta = await sharp(frame.ok ? frame.png : Buffer.alloc(0)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 640, 360]);
  });

  it('answers why there is none: no ffmpeg, a file it cannot read, a file past its time', async () => {
    expect(
      await extractPosterFrame(clip, { ffmpegPath: '/nonexistent/ffmpeg', timeoutMs: 15_000 }),
    ).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^ffmpeg could not start: .*ENOENT/),
    });
    expect(await extractPosterFrame(broken, { ffmpegPath: 'ffmpeg', timeoutMs: 15_000 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^ffmpeg exited with 1/),
    });
    // A stand-in that never ends is stopped at the time limit.
    const sleeper = path.join(work, 'sleeper.sh');
    fs.writeFileSync(sleeper, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    expect(await extractPosterFrame(clip, { ffmpegPath: sleeper, timeoutMs: 200 })).toEqual({
      ok: false,
      reason: 'ffmpeg ran past 200 ms',
    });
  });
});

// A video material gets a WebP poster frame when ffmpeg can make one, and the type icon otherwise.
describe.each(backends)('video poster frames on %s', (backend) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  async function uploadVideo(server: TestServer, client: TestClient, file: string, name: string) {
    const form = new FormData();
    form.append('fileType', '3');
    form.append('uiFile', new Blob([fs.readFileSync(file)]), name);
    const response = await fetch(`${server.url}/material/insertMaterial`, {
      method: 'POST',
      headers: { cookie: `pf_session=${client.cookie('pf_session')}` },
      body: form,
    });
    return materials.insertMaterial.reply.parse(await response.json()).dataObject;
  }
  const thumbnail = (server: TestServer, client: TestClient, id: number) =>
    fetch(`${server.url}/material/thumbnail?materialId=${id}`, {
      headers: { cookie: `pf_session=${client.cookie('pf_session')}` },
    });

  let withFfmpeg: TestServer;
  let withoutFfmpeg: TestServer;
  beforeAll(async () => {
    withFfmpeg = await startServer(backend);
    withoutFfmpeg = await startServer(backend, { FFMPEG_PATH: '/nonexistent/ffmpeg' });
    servers.push(withFfmpeg, withoutFfmpeg);
  });

  it('with ffmpeg: a 320 px WebP of the first frame, listed as the video’s thumbnail', async () => {
    const operator = await signedIn(withFfmpeg, 'operator1', 'operator123');
    const video = await uploadVideo(withFfmpeg, operator, clip, 'pattern.mp4');
    expect(video).toMatchObject({ fileType: 3, format: 'mp4', hasThumbnail: true });
    const listed = materials.listMaterials.reply.parse(
      (await operator.get('/material/listMaterial?fileType=3')).body,
    ).listObject;
    expect(listed.find((m) => m.materialId === video.materialId)?.hasThumbnail).toBe(true);
    const response = await thumbnail(withFfmpeg, operator, video.materialId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 180]);
    // A video ffmpeg cannot read is still kept (it passed the content check), with the type icon.
    const damaged = await uploadVideo(withFfmpeg, operator, broken, 'damaged.mp4');
    expect(damaged.hasThumbnail).toBe(false);
    expect((await thumbnail(withFfmpeg, operator, damaged.materialId)).status).toBe(404);
  });

  it('without ffmpeg: the video is stored and shows its type icon; no poster is made', async () => {
    const operator = await signedIn(withoutFfmpeg, 'operator1', 'operator123');
    const video = await uploadVideo(withoutFfmpeg, operator, clip, 'pattern.mp4');
    expect(video).toMatchObject({ fileType: 3, format: 'mp4', hasThumbnail: false });
    const response = await thumbnail(withoutFfmpeg, operator, video.materialId);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ hhtStatus: 'fail' });
    const thumbs = path.join(withoutFfmpeg.dataDir, 'files', 'materials', 'thumbs');
    expect(fs.existsSync(thumbs) ? fs.readdirSync(thumbs) : []).toEqual([]);
  });
});
