import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { RegisterError, type RegisteredFile } from '../src/modules/downloads/service.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import { enroll, enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';

const MiB = 1024 * 1024;

interface Seen {
  deviceKey: string;
  range: string | undefined;
  status: number;
}

/**
 * A real HTTP hop between the panels and the server, with faults: it cuts one panel's first
 * download after `cutAfter` bytes (once the server shows the progress the panel reported) and
 * flips a byte of everything another panel downloads.
 */
class FaultyProxy {
  readonly seen: Seen[] = [];
  target = 0;
  cut = new Map<string, { after: number; waitFor: () => Promise<unknown>; done: boolean }>();
  corrupt = new Set<string>();
  private server = http.createServer((req, res) => this.forward(req, res));

  async listen() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse) {
    const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const deviceKey = auth ? Buffer.from(auth, 'base64').toString().split(':')[0]! : '';
    const upstream = http.request(
      { host: '127.0.0.1', port: this.target, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        this.seen.push({ deviceKey, range: req.headers.range, status: up.statusCode ?? 0 });
        res.writeHead(up.statusCode ?? 502, up.headers);
        const cut = this.cut.get(deviceKey);
        const cutting = cut && !cut.done ? cut : undefined;
        if (cutting) cutting.done = true;
        let offset = Number(/^bytes (\d+)-/.exec(String(up.headers['content-range'] ?? ''))?.[1] ?? 0);
        let sent = 0;
        up.on('data', (chunk: Buffer) => {
          if (this.corrupt.has(deviceKey) && offset <= 1000 && offset + chunk.length > 1000)
            chunk[1000 - offset] = chunk[1000 - offset]! ^ 0xff;
          offset += chunk.length;
          if (cutting && sent + chunk.length >= cutting.after) {
            res.write(chunk.subarray(0, cutting.after - sent));
            up.pause();
            void cutting.waitFor().finally(() => {
              up.destroy();
              res.socket?.destroy();
            });
            return;
          }
          sent += chunk.length;
          res.write(chunk);
        });
        up.on('end', () => res.end());
      },
    );
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  }
}

describe.each(backends)('signed file downloads and OTA on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let proxy: FaultyProxy;
  let proxyUrl: string;
  let fleet: Fleet | undefined;
  let firmware: RegisteredFile;
  let content: Buffer;
  const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
  const basic = (user: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });
  const direct = (url: string) => url.replace(proxyUrl, server.url);

  beforeAll(async () => {
    proxy = new FaultyProxy();
    proxyUrl = await proxy.listen();
    server = await startServer(backend, { BASE_URL: proxyUrl });
    proxy.target = Number(new URL(server.url).port);
    operator = await operatorClient(server);
    content = crypto.randomBytes(3 * MiB + 123);
    fs.mkdirSync(path.join(server.dataDir, 'files', 'firmware'), { recursive: true });
    fs.writeFileSync(path.join(server.dataDir, 'files', 'firmware', 'pf86-1.5.0.bin'), content);
    firmware = await server.app.devices.downloads.register({
      path: 'firmware/pf86-1.5.0.bin',
      size: content.length,
      sha256: sha256(content),
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    await server.stop();
    await proxy.close();
  });

  it('registers only files below DATA_DIR/files with the right size and SHA-256', async () => {
    expect(firmware).toEqual({
      path: 'firmware/pf86-1.5.0.bin',
      size: content.length,
      sha256: sha256(content),
    });
    const refusal = (file: { path: string; size: number; sha256: string }) =>
      server.app.devices.downloads.register(file).then(
        () => 'registered',
        (err: unknown) => (err instanceof RegisterError ? err.reason : String(err)),
      );
    expect(await refusal({ path: '../panelfleet.db', size: 1, sha256: sha256(content) })).toBe('outsideRoot');
    expect(await refusal({ path: 'firmware/missing.bin', size: 1, sha256: sha256(content) })).toBe(
      'notFound',
    );
    expect(
      await refusal({ path: 'firmware/pf86-1.5.0.bin', size: content.length - 1, sha256: sha256(content) }),
    ).toBe('sizeMismatch');
    expect(
      await refusal({
        path: 'firmware/pf86-1.5.0.bin',
        size: content.length,
        sha256: sha256(Buffer.from('other')),
      }),
    ).toBe('checksumMismatch');
  });

  it('serves a signed URL to its own panel only, whole or by byte range', async () => {
    const secret = await enrollmentSecretOf(operator);
    const owner = await enroll(server.url, 'DL-OWNER', secret);
    const other = await enroll(server.url, 'DL-OTHER', secret);
    const signed = server.app.devices.downloads.signedUrl(firmware, 'DL-OWNER');
    expect(signed.url.startsWith(`${proxyUrl}/device/files/`)).toBe(true);
    const url = direct(signed.url);
    const auth = basic('DL-OWNER', owner.password);

    const whole = await fetch(url, { headers: auth });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('etag')).toBe(`"${firmware.sha256}"`);
    expect(Number(whole.headers.get('content-length'))).toBe(content.length);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(firmware.sha256);

    const tail = await fetch(url, { headers: { ...auth, range: 'bytes=1000000-' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes 1000000-${content.length - 1}/${content.length}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(content.subarray(1_000_000))).toBe(true);
    const head = await fetch(url, { headers: { ...auth, range: 'bytes=0-99' } });
    expect(Buffer.from(await head.arrayBuffer()).equals(content.subarray(0, 100))).toBe(true);
    const suffix = await fetch(url, { headers: { ...auth, range: 'bytes=-10' } });
    expect(Buffer.from(await suffix.arrayBuffer()).equals(content.subarray(content.length - 10))).toBe(true);
    const changed = await fetch(url, {
      headers: { ...auth, range: 'bytes=100-', 'if-range': '"another-version"' },
    });
    expect(changed.status).toBe(200);
    await changed.body?.cancel();
    const beyond = await fetch(url, { headers: { ...auth, range: `bytes=${content.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${content.length}`);
    expect(await beyond.json()).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The requested byte range is outside the file',
    });
    const onlyHead = await fetch(url, { method: 'HEAD', headers: auth });
    expect(onlyHead.status).toBe(200);
    expect(Number(onlyHead.headers.get('content-length'))).toBe(content.length);

    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await fetch(url, { headers: basic('DL-OTHER', other.password) })).status).toBe(403);
    // A wrong password is a failed authentication, answered with a new challenge.
    const wrongPassword = await fetch(url, { headers: basic('DL-OWNER', other.password) });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.headers.get('www-authenticate')).toMatch(/^Basic/);
    const token = new URL(url).searchParams.get('t')!;
    const forged = `${server.url}/device/files/x.bin?t=${token.replace(/^./, (c) => (c === 'W' ? 'X' : 'W'))}`;
    const refused = await fetch(forged, { headers: { ...auth, 'accept-language': 'zh-CN' } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ hhtStatus: 'fail', hhtMsg: '下载链接无效' });
  });

  it('refuses OTA (and WAKE) typed by an operator: only the server composes them', async () => {
    const row = device.listDevices.reply.parse(
      (await operator.get('/platform/device/list?start=1&size=10&deviceName=DL-OWNER')).body,
    ).listObject[0]!;
    const value = JSON.stringify({
      url: 'http://evil.example/fw.bin',
      size: 10,
      sha256: 'a'.repeat(64),
      version: '9',
    });
    expect(
      (
        await operator.post('/sendData/sendCommandByDeviceId', {
          deviceId: String(row.deviceId),
          order: 'OTA',
          value,
        })
      ).body,
    ).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'Unknown order' });
  });

  it('updates simulated panels over HTTP: progress, resume after a cut, SHA-256 check, new version; a corrupt download fails with checksum', async () => {
    fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 3,
      prefix: 'OTA',
      telemetryMs: 3_600_000,
      progressMs: 20,
      abnormalLogChance: 0,
      log: () => undefined,
    });
    const db = server.app.db.kysely;
    const devices = await waitFor("the panels' first state reports", async () => {
      await server.app.devices.gateway.flushState();
      const rows = await db
        .selectFrom('devices')
        .select(['id', 'device_key', 'ota_version'])
        .where('device_key', 'like', 'OTA-%')
        .orderBy('device_key')
        .execute();
      return rows.every((r) => r.ota_version === '1.4.2') ? rows : undefined;
    });
    const [plain, cut, corrupt] = devices;
    // The cut panel's first download stops at 1 MiB until the server shows the progress it reported.
    proxy.cut.set(cut!.device_key, {
      after: MiB,
      done: false,
      waitFor: () =>
        waitFor('progress of the cut panel', async () => {
          const r = await db
            .selectFrom('devices')
            .select(['ota_current', 'ota_total'])
            .where('id', '=', cut!.id)
            .executeTakeFirstOrThrow();
          return r.ota_total === content.length && r.ota_current! > 0 && r.ota_current! <= MiB;
        }),
    });
    proxy.corrupt.add(corrupt!.device_key);

    const ids = await server.app.devices.commands.sendOta(
      server.accounts.customerId,
      null,
      devices.map((d) => ({ id: d.id, deviceKey: d.device_key })),
      firmware,
      '1.5.0',
      server.app.ota.signer.sign({
        version: '1.5.0',
        size: firmware.size,
        sha256: firmware.sha256,
        machineTypes: ['x9_vn', 'oem', 'rs'],
        fromVersions: [],
        issuedAt: server.clock.now(),
      }),
    );
    const command = (id: string) =>
      db
        .selectFrom('commands')
        .select(['status', 'detail', 'value'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    await waitFor(
      'every OTA to end',
      async () => {
        const rows = await Promise.all(ids.map(command));
        return rows.every((r) => r.status === 'succeeded' || r.status === 'failed') ? rows : undefined;
      },
      30_000,
    );
    await server.app.devices.gateway.flushState();

    expect(await command(ids[0]!)).toMatchObject({ status: 'succeeded', detail: '' });
    expect(await command(ids[1]!)).toMatchObject({ status: 'succeeded', detail: 'resumed 1x' });
    expect(await command(ids[2]!)).toMatchObject({ status: 'failed', detail: 'checksum' });
    // The database keeps the file reference, never a signed URL.
    expect(JSON.parse((await command(ids[0]!)).value)).toMatchObject({
      file: firmware,
      version: '1.5.0',
      allowDowngrade: false,
    });
    expect(JSON.parse((await command(ids[0]!)).value)).not.toHaveProperty('url');

    const after = await db
      .selectFrom('devices')
      .select(['device_key', 'ota_version', 'ota_current', 'ota_total'])
      .where('device_key', 'like', 'OTA-%')
      .orderBy('device_key')
      .execute();
    expect(after[0]).toMatchObject({
      ota_version: '1.5.0',
      ota_current: content.length,
      ota_total: content.length,
    });
    expect(after[1]).toMatchObject({
      ota_version: '1.5.0',
      ota_current: content.length,
      ota_total: content.length,
    });
    expect(after[2]!.ota_version).toBe('1.4.2');
    expect(fleet.panels.map((p) => p.state.otaVersion)).toEqual(['1.5.0', '1.5.0', '1.4.2']);

    const requests = (key: string) => proxy.seen.filter((s) => s.deviceKey === key);
    expect(requests(plain!.device_key)).toEqual([
      { deviceKey: plain!.device_key, range: undefined, status: 200 },
    ]);
    const resumed = requests(cut!.device_key);
    expect(resumed).toHaveLength(2);
    expect(resumed[1]).toMatchObject({ range: `bytes=${MiB}-`, status: 206 });
    expect(requests(corrupt!.device_key).map((s) => s.status)).toEqual([200, 200]);
  }, 60_000);

  it('refuses an expired link and a file that changed since it was signed', async () => {
    const secret = await enrollmentSecretOf(operator);
    const owner = await enroll(server.url, 'DL-LATE', secret);
    const auth = basic('DL-LATE', owner.password);
    const signed = server.app.devices.downloads.signedUrl(firmware, 'DL-LATE');
    fs.writeFileSync(
      path.join(server.dataDir, 'files', 'firmware', 'pf86-1.5.0.bin'),
      content.subarray(0, 100),
    );
    expect((await fetch(direct(signed.url), { headers: auth })).status).toBe(404);
    fs.writeFileSync(path.join(server.dataDir, 'files', 'firmware', 'pf86-1.5.0.bin'), content);
    server.clock.advance(61 * 60_000);
    const expired = await fetch(direct(signed.url), { headers: auth });
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'This download link has expired; ask the server for a new one',
    });
  });
});
