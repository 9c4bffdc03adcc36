import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signedIn, startServer, type TestServer } from './harness.js';

/** A 24-bit bottom-up BMP of one colour, as image editors save it. */
function bmp(width: number, height: number, rgb: [number, number, number]): Buffer {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const file = Buffer.alloc(54 + rowSize * height);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) file.set([rgb[2], rgb[1], rgb[0]], 54 + y * rowSize + x * 3);
  return file;
}

const solid = (format: 'png' | 'gif' | 'jpeg', size = 200) => {
  const image = sharp({ create: { width: size, height: size, channels: 3, background: '#3366cc' } });
  return image[format]().toBuffer();
};

async function upload(
  server: TestServer,
  cookieOf: Awaited<ReturnType<typeof signedIn>>,
  content: Buffer,
  fileName: string,
  mime = 'application/octet-stream',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type: mime }), fileName);
  const response = await fetch(`${server.url}/platform/user/uploadAvatar`, {
    method: 'POST',
    body: form,
    headers: { cookie: `pf_session=${cookieOf.cookie('pf_session')}`, 'accept-language': 'en-US' },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(backends)('avatar upload on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(() => server.stop());

  it('accepts png, gif, jpeg and bmp by content and stores a 150x150 jpeg the user can read back', async () => {
    const user = await signedIn(server, 'operator1', 'operator123');
    for (const [content, name] of [
      [await solid('png'), 'a.png'],
      [await solid('gif'), 'a.gif'],
      [await solid('jpeg'), 'a.jpg'],
      [bmp(40, 30, [200, 10, 10]), 'a.bmp'],
    ] as const) {
      const reply = await upload(server, user, content, name);
      expect(reply.body).toMatchObject({ hhtStatus: 'success' });
      const image = await fetch(`${server.url}/platform/user/avatar`, {
        headers: { cookie: `pf_session=${user.cookie('pf_session')}` },
      });
      expect(image.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 150, 150]);
    }
    const profile = (await user.get('/platform/user/select')).body as { dataObject: { avatar: string } };
    expect(profile.dataObject.avatar).toMatch(/^[a-f0-9]{32}\.jpg$/);
  });

  it('refuses content that is not an allowed image whatever its name says, and keeps the old avatar', async () => {
    const user = await signedIn(server, 'manager1', 'manager123');
    expect((await upload(server, user, await solid('png'), 'ok.png')).body.hhtStatus).toBe('success');
    const before = ((await user.get('/platform/user/select')).body as { dataObject: { avatar: string } })
      .dataObject.avatar;
    const script = await upload(
      server,
      user,
      Buffer.from('<script>alert(1)</script>'),
      'evil.jpg',
      'image/jpeg',
    );
    expect(script).toMatchObject({
      status: 400,
      body: { hhtStatus: 'fail', hhtMsg: 'Avatar: gif, jpg, jpeg, png or bmp only' },
    });
    const webp = await upload(
      server,
      user,
      await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .webp()
        .toBuffer(),
      'x.png',
    );
    expect(webp.body.hhtStatus).toBe('fail');
    const truncated = await upload(server, user, (await solid('png')).subarray(0, 40), 'cut.png');
    expect(truncated.body.hhtStatus).toBe('fail');
    expect(truncated.status).toBeLessThan(500);
    const huge = await upload(server, user, Buffer.alloc(6 * 1024 * 1024, 1), 'big.bmp');
    expect(huge.body.hhtStatus).toBe('fail');
    expect(huge.status).toBeLessThan(500);
    const after = ((await user.get('/platform/user/select')).body as { dataObject: { avatar: string } })
      .dataObject.avatar;
    expect(after).toBe(before);
  });

  it('serves each user only their own avatar and nothing without a session', async () => {
    const fresh = await signedIn(server, 'sales1', 'sales123');
    expect((await fresh.get('/platform/user/avatar')).status).toBe(404);
    expect((await fetch(`${server.url}/platform/user/avatar`)).status).toBe(401);
  });
});
