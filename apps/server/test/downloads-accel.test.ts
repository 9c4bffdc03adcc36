import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { RegisteredFile } from '../src/modules/downloads/service.js';
import { backends, startServer, type TestServer } from './harness.js';
import { freePort } from './server-process.js';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';
import { requirePrograms, startNginx, type Balancer } from './faults/infra.js';

const ACCEL = '/_panelfleet_files/';
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

describe('FILES_ACCEL_REDIRECT settings', () => {
  it('takes an internal location path, and refuses one with FILE_STORE=s3', () => {
    expect(loadConfig({ FILES_ACCEL_REDIRECT: ACCEL }).files).toEqual({
      kind: 'local',
      accelRedirect: ACCEL,
    });
    expect(loadConfig({}).files).toEqual({ kind: 'local' });
    for (const bad of ['_files/', '/_files', '/a/../b/', 'http://x/files/', '/a b/'])
      expect(() => loadConfig({ FILES_ACCEL_REDIRECT: bad })).toThrow(/FILES_ACCEL_REDIRECT/);
    expect(() =>
      loadConfig({
        FILE_STORE: 's3',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_BUCKET: 'panelfleet',
        FILES_ACCEL_REDIRECT: ACCEL,
      }),
    ).toThrow(/with FILE_STORE=s3 panels download from the bucket/);
  });
});

/**
 * Downloads behind Debian's nginx with the block of docs/operations.md as written there: the
 * server checks each request, nginx sends the bytes with its own Range and If-Range handling.
 */
describe.each(backends)('downloads sent by nginx (X-Accel-Redirect) on %s', (backend) => {
  let server: TestServer;
  let nginx: Balancer;
  let firmware: RegisteredFile;
  let content: Buffer;
  let url: string;
  let auth: Record<string, string>;
  let otherAuth: Record<string, string>;

  beforeAll(async () => {
    requirePrograms();
    const nginxPort = await freePort();
    const nginxUrl = `http://127.0.0.1:${nginxPort}`;
    server = await startServer(backend, { BASE_URL: nginxUrl, FILES_ACCEL_REDIRECT: ACCEL });
    nginx = await startNginx([new URL(server.url).host], nginxPort, path.join(server.dataDir, 'files'));
    content = crypto.randomBytes(2 * 1024 * 1024 + 77);
    fs.mkdirSync(path.join(server.dataDir, 'files', 'firmware'), { recursive: true });
    fs.writeFileSync(path.join(server.dataDir, 'files', 'firmware', 'pf86-2.0.bin'), content);
    firmware = await server.app.devices.downloads.register({
      path: 'firmware/pf86-2.0.bin',
      size: content.length,
      sha256: sha256(content),
    });
    const secret = await enrollmentSecretOf(await operatorClient(server));
    const owner = await enroll(server.url, 'ACCEL-OWNER', secret);
    const other = await enroll(server.url, 'ACCEL-OTHER', secret);
    auth = basic('ACCEL-OWNER', owner.password);
    otherAuth = basic('ACCEL-OTHER', other.password);
    url = server.app.devices.downloads.signedUrl(firmware, 'ACCEL-OWNER').url;
    expect(url.startsWith(`${nginxUrl}/device/files/`)).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await nginx?.stop();
    await server?.stop();
  });

  it('the server answers a good request with the redirect and no bytes', async () => {
    const direct = await fetch(url.replace(nginx.url, server.url), { headers: auth });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('x-accel-redirect')).toBe(`${ACCEL}firmware/pf86-2.0.bin`);
    expect(direct.headers.get('etag')).toBe(`"${firmware.sha256}"`);
    expect((await direct.arrayBuffer()).byteLength).toBe(0);
  });

  it('nginx sends the whole file, with the SHA-256 ETag and no internal header', async () => {
    const whole = await fetch(url, { headers: auth });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('etag')).toBe(`"${firmware.sha256}"`);
    expect(whole.headers.get('cache-control')).toBe('private, no-store');
    expect(whole.headers.get('x-accel-redirect')).toBeNull();
    expect(Number(whole.headers.get('content-length'))).toBe(content.length);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(firmware.sha256);
  });

  it('resumes by Range, honouring If-Range against the SHA-256 ETag', async () => {
    const tail = await fetch(url, {
      headers: { ...auth, range: 'bytes=1000000-', 'if-range': `"${firmware.sha256}"` },
    });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes 1000000-${content.length - 1}/${content.length}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(content.subarray(1_000_000))).toBe(true);

    const changed = await fetch(url, { headers: { ...auth, range: 'bytes=100-', 'if-range': '"another"' } });
    expect(changed.status).toBe(200);
    expect(Buffer.from(await changed.arrayBuffer()).equals(content)).toBe(true);
  });

  it('refusals come from the server, in the envelope; the internal location is not reachable', async () => {
    const stranger = await fetch(url, { headers: { ...otherAuth, 'accept-language': 'en-US' } });
    expect(stranger.status).toBe(403);
    expect(await stranger.json()).toMatchObject({ hhtStatus: 'fail' });
    expect((await fetch(url)).status).toBe(401);
    const beyond = await fetch(url, { headers: { ...auth, range: `bytes=${content.length}-` } });
    expect(beyond.status).toBe(416);
    expect(await beyond.json()).toMatchObject({ hhtStatus: 'fail' });

    const internal = await fetch(`${nginx.url}${ACCEL}firmware/pf86-2.0.bin`);
    expect(internal.status).toBe(404);
    await internal.body?.cancel();
  });
});
