import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realisticApps } from '../../simulator/src/apps.js';
import { startFleet } from '../../simulator/src/fleet.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { backends, startServer, type TestServer } from './harness.js';

// Protocol 5.2: a panel's app list holds up to 1,000 apps. Realistic entries (name, package,
// version, versionCode, size, icon, signer) are about 300 bytes, so 1,000 of them are ~300 KB,
// far past the 64 KiB message limit: the list travels in numbered parts and is replaced only
// when every part of its report has arrived.
describe.each(backends)('app reports in parts on %s', (backend) => {
  let server: TestServer;
  let panel: BareDevice;
  let deviceId: number;
  let secret: string;
  const thousand = realisticApps(1000);

  const send = (payload: unknown) =>
    panel.client.publishAsync(`pf/v1/d/${panel.key}/apps`, JSON.stringify(payload), { qos: 1 });
  const stored = async () =>
    server.app.db.kysely
      .selectFrom('device_apps')
      .select(['package_name', 'app_name', 'version_name', 'version_code', 'signer_sha256', 'icon_name'])
      .where('device_id', '=', deviceId)
      .orderBy('package_name')
      .execute();
  const storedCount = async () => (await stored()).length;
  /** Waits until every message sent so far has been handled (a state report behind them is written). */
  let marks = 0;
  async function settled() {
    const marker = ++marks;
    await panel.client.publishAsync(`pf/v1/d/${panel.key}/state`, JSON.stringify({ v: 1, volume: marker }), {
      qos: 1,
    });
    await waitFor('messages handled', async () => {
      await server.app.devices.gateway.flushState();
      const row = await server.app.db.kysely
        .selectFrom('devices')
        .select('volume')
        .where('id', '=', deviceId)
        .executeTakeFirstOrThrow();
      return row.volume === marker && server.app.devices.gateway.waitingWrites === 0 ? true : undefined;
    });
  }

  beforeAll(async () => {
    server = await startServer(backend);
    const operator = await operatorClient(server);
    secret = await enrollmentSecretOf(operator);
    panel = await connectBare(
      `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      await enroll(server.url, 'PARTS-0001', secret),
    );
    deviceId = (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'PARTS-0001')
        .executeTakeFirstOrThrow()
    ).id;
    await send({ v: 1, apps: thousand.slice(0, 3) });
    await waitFor('first list', async () => ((await storedCount()) === 3 ? true : undefined));
  });
  afterAll(async () => {
    await panel?.close();
    await server?.stop();
  });

  it('1,000 realistic apps do not fit one message, and go whole in numbered parts', async () => {
    const whole = Buffer.byteLength(JSON.stringify({ v: 1, apps: thousand }));
    expect(whole).toBeGreaterThan(device.MAX_PAYLOAD_BYTES * 4);
    // Past the packet limit (257 KiB) the broker would even close the connection; half of them
    // as one message is only over the 64 KiB payload limit: dropped whole, the old list stays.
    expect(whole).toBeGreaterThan(device.MAX_PACKET_BYTES);
    await send({ v: 1, apps: thousand.slice(0, 500) });
    await settled();
    expect(await storedCount()).toBe(3);

    const parts = device.appReportMessages(thousand, 'report-0001');
    expect(parts.length).toBeGreaterThanOrEqual(5);
    for (const part of parts) {
      expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThanOrEqual(device.MAX_PAYLOAD_BYTES);
      expect(device.appReport.safeParse(part).success).toBe(true);
    }
    // Out of order, one part delivered twice (QoS 1 redelivery), the last one held back: nothing yet.
    const [first, ...rest] = parts;
    const last = rest.pop()!;
    for (const part of [...rest.reverse(), first!, rest[0]!]) await send(part);
    await settled();
    expect(await storedCount()).toBe(3);
    await send(last);
    await waitFor('1,000 apps stored', async () => ((await storedCount()) === 1000 ? true : undefined));
    const rows = await stored();
    const byName = new Map(rows.map((r) => [r.package_name, r]));
    for (const app of thousand)
      expect(byName.get(app.packageName)).toMatchObject({
        app_name: app.appName,
        version_name: app.versionName,
        signer_sha256: app.signerSha256,
        icon_name: app.iconName,
      });
    expect(Number(byName.get(thousand[999]!.packageName)!.version_code)).toBe(thousand[999]!.versionCode);
    // The parts are gone once assembled.
    const left = await server.app.db.kysely
      .selectFrom('device_app_parts')
      .select('part')
      .where('device_id', '=', deviceId)
      .execute();
    expect(left).toEqual([]);
  });

  it('a newer report supersedes an unfinished one; parts holding more than 1,000 apps are dropped whole', async () => {
    const fewer = realisticApps(700);
    const unfinished = device.appReportMessages(realisticApps(900), 'report-0002');
    await send(unfinished[0]);
    const next = device.appReportMessages(fewer, 'report-0003');
    for (const part of next) await send(part);
    // The rest of the superseded report arrives late and completes nothing.
    for (const part of unfinished.slice(1)) await send(part);
    await settled();
    await waitFor('700 apps stored', async () => ((await storedCount()) === 700 ? true : undefined));

    // Two parts of 600: each is valid, together they pass the 1,000 a list may hold.
    const big = realisticApps(1200);
    await send({ v: 1, id: 'report-0004', part: 1, parts: 2, apps: big.slice(0, 600).map(slim) });
    await send({ v: 1, id: 'report-0004', part: 2, parts: 2, apps: big.slice(600).map(slim) });
    await settled();
    expect(await storedCount()).toBe(700);
    // A part without its report id, or past its count, does not fit the schema.
    await send({ v: 1, part: 1, parts: 2, apps: [] });
    await send({ v: 1, id: 'report-0005', part: 3, parts: 2, apps: [] });
    await settled();
    expect(await storedCount()).toBe(700);
  });

  it('the simulator sends its 1,000 apps in parts and the server keeps them all', async () => {
    const fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: secret,
      count: 1,
      prefix: 'PARTS-SIM',
      telemetryMs: 3_600_000,
      abnormalLogChance: 0,
      log: () => undefined,
    });
    try {
      const simulated = fleet.panels[0]!;
      const id = await waitFor('simulated panel enrolled', async () => {
        const row = await server.app.db.kysely
          .selectFrom('devices')
          .select('id')
          .where('device_key', '=', simulated.serial)
          .executeTakeFirst();
        return row?.id;
      });
      simulated.apps = realisticApps(1000);
      await simulated.publishApps();
      const count = async () =>
        Number(
          (
            await server.app.db.kysely
              .selectFrom('device_apps')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('device_id', '=', id)
              .executeTakeFirstOrThrow()
          ).n,
        );
      await waitFor('1,000 apps of the simulated panel', async () =>
        (await count()) === 1000 ? true : undefined,
      );
    } finally {
      await fleet.stop();
    }
  });
});

/** The smallest entries, so that 600 fit one message. */
function slim(_app: device.InstalledApp, i: number): device.InstalledApp {
  return { appName: `a${i}`, packageName: `p.a${i}`, versionName: '1', appSize: 1, appLevel: 0 };
}
