import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { device } from '@panelfleet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../server/test/harness.js';
import { enrollmentSecretOf, operatorClient } from '../../server/test/device-helpers.js';
import { enroll, EnrollmentRefused } from './enrollment.js';
import { startFleet, type Fleet } from './fleet.js';

const busy = JSON.stringify({
  hhtStatus: 'fail',
  hhtMsg: 'The service is briefly unavailable, please try again',
  hhtMsgKey: 'common.serviceUnavailable',
});

/** An HTTP front that answers the first `refusals` enrollments with `status`, and passes everything else on. */
async function front(target: string | undefined, refusals: number, port = 0) {
  let enrollments = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/device/enroll' && ++enrollments <= refusals) {
        res.writeHead(503, { 'content-type': 'application/json' }).end(busy);
        return;
      }
      if (!target) return res.writeHead(500).end();
      void fetch(`${target}${req.url}`, {
        method: req.method!,
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        ...(req.method === 'GET' ? {} : { body: Buffer.concat(chunks) }),
      }).then(async (answer) =>
        res
          .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' })
          .end(Buffer.from(await answer.arrayBuffer())),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    enrollments: () => enrollments,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const request = (serverUrl: string, overrides: Partial<Parameters<typeof enroll>[0]> = {}) => ({
  serverUrl,
  serial: 'SIM-RETRY',
  enrollmentSecret: 'k3Jx9QpVb2Lm7TfR4sWz8NcY',
  model: 'PF-86',
  machineType: 'x9_vn',
  retryFirstMs: 20,
  retryMaxMs: 80,
  log: () => undefined,
  ...overrides,
});

describe('enrollment of a simulated panel', () => {
  let server: TestServer;
  let secret: string;
  let fleet: Fleet | undefined;
  const fronts: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    server = await startServer('sqlite');
    secret = await enrollmentSecretOf(await operatorClient(server));
  });
  afterEach(async () => {
    await fleet?.stop();
    fleet = undefined;
    for (const f of fronts.splice(0)) await f.close();
  });
  afterAll(() => server.stop());

  it('starts the whole fleet although the server answers some enrollments 503, each panel trying again on its own', async () => {
    const busyServer = await front(server.url, 4);
    fronts.push(busyServer);
    fleet = await startFleet({
      url: busyServer.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: secret,
      count: 6,
      prefix: 'BUSY',
      telemetryMs: 3_600_000,
      abnormalLogChance: 0,
      enrollRetryFirstMs: 20,
      log: () => undefined,
    });
    expect(fleet.panels.every((p) => p.connected)).toBe(true);
    expect(busyServer.enrollments()).toBeGreaterThan(6);
    const enrolled = await server.app.db.kysely
      .selectFrom('devices')
      .select('device_key')
      .where('device_key', 'like', 'BUSY-%')
      .execute();
    expect(enrolled).toHaveLength(6);
  });

  it('tries again when nothing answers, and gives up at once on a refusal', async () => {
    // Nothing listens there yet: connection refused, then a 503, then the real server.
    const port = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const logs: string[] = [];
    const enrolling = enroll(
      request(`http://127.0.0.1:${port}`, {
        serial: 'SIM-LATE',
        enrollmentSecret: secret,
        retryFirstMs: 200,
        retryMaxMs: 200,
        log: (m) => logs.push(m),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Listening at last: busy once, then passing on.
    fronts.push(await front(server.url, 1, port));
    expect((await enrolling).deviceKey).toBe('SIM-LATE');
    expect(logs[0]).toMatch(/no answer/);
    expect(logs[1]).toMatch(/503/);

    const wrongSecret = await front(server.url, 0);
    fronts.push(wrongSecret);
    await expect(
      enroll(request(wrongSecret.url, { enrollmentSecret: 'not-the-secret-0123' })),
    ).rejects.toBeInstanceOf(EnrollmentRefused);
    expect(wrongSecret.enrollments()).toBe(1);
  });

  it('waits with jitter, doubling up to its most', () => {
    const waits = [1, 2, 3, 4, 10].map((attempt) => device.backoffDelay(attempt, 1000, 5000, () => 1));
    expect(waits).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(device.backoffDelay(3, 1000, 5000, () => 0)).toBe(2000);
  });
});
