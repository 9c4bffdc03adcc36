import { screenTime } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { connectBare, enroll, enrollmentSecretOf, waitFor, type BareDevice } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const base = Date.UTC(2026, 0, 10);

describe.each(backends)('screen time on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let panel: BareDevice;

  const ask = (client: TestClient, params: Record<string, string | number>) =>
    client.post(
      '/rptDeviceTime/selectRptTime',
      Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
    );
  const report = async (params: Record<string, string | number>) =>
    screenTime.selectRptTime.reply.parse((await ask(operator, params)).body);

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    operator = await signedIn(server, 'operator1', 'operator123');
    const mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
    panel = await connectBare(
      mqttUrl,
      await enroll(server.url, 'ST-0001', await enrollmentSecretOf(operator)),
    );
    const publish = (kind: string, payload: object) =>
      panel.client.publishAsync(`pf/v1/d/ST-0001/${kind}`, JSON.stringify({ v: 1, ...payload }), { qos: 1 });
    await publish('apps', {
      apps: [
        {
          appName: 'Whiteboard',
          packageName: 'com.panel.board',
          versionName: '2.1',
          appSize: 1000,
          appLevel: 0,
          iconName: 'ic_board',
        },
      ],
    });
    await publish('usage', {
      id: 'usage-report-0001',
      from: base + 9 * HOUR,
      to: base + 9 * HOUR + 10 * MIN,
      screenOnMs: 10 * MIN,
      records: [
        {
          packageName: 'com.panel.board',
          appName: 'Whiteboard',
          startedAt: base + 9 * HOUR,
          durationMs: 6 * MIN,
        },
        {
          packageName: 'com.panel.browser',
          appName: 'Browser',
          startedAt: base + 9 * HOUR + 6 * MIN,
          durationMs: 3.5 * MIN,
        },
      ],
    });
    // Straddles 10:00: half of it belongs to each hour.
    await publish('usage', {
      id: 'usage-report-0002',
      from: base + 9 * HOUR + 50 * MIN,
      to: base + 10 * HOUR + 10 * MIN,
      screenOnMs: 20 * MIN,
      records: [
        {
          packageName: 'com.panel.board',
          appName: 'Whiteboard',
          startedAt: base + 9 * HOUR + 50 * MIN,
          durationMs: 20 * MIN,
        },
      ],
    });
    await publish('usage', {
      id: 'usage-report-0003',
      from: base + 11 * HOUR,
      to: base + 11 * HOUR + 30_000,
      screenOnMs: 30_000,
      records: [
        { packageName: 'com.panel.clock', appName: 'Clock', startedAt: base + 11 * HOUR, durationMs: 30_000 },
      ],
    });
    await publish('usage', {
      id: 'usage-report-0004',
      from: base - 3 * DAY + 8 * HOUR,
      to: base - 3 * DAY + 9 * HOUR,
      screenOnMs: HOUR,
      records: [
        {
          packageName: 'com.panel.video',
          appName: 'Video',
          startedAt: base - 3 * DAY + 8 * HOUR,
          durationMs: HOUR,
        },
      ],
    });
    await waitFor('usage and apps stored', async () => {
      const db = server.app.db.kysely;
      const usage = await db.selectFrom('screen_time').select('id').execute();
      const apps = await db.selectFrom('device_apps').select('icon_name').execute();
      return usage.length === 4 && apps.length === 1;
    });
  });
  afterAll(async () => {
    await panel.close();
    await server.stop();
  });

  it('adds up today per app and per hour, from the reports the panel sent', async () => {
    const day = await report({ startTime: base, endTime: base + DAY, sign: 'day', deviceKey: 'ST-0001' });
    expect(day.RtpAppTime).toEqual([
      { icon: 'ic_board', appName: 'Whiteboard', packageName: 'com.panel.board', totalTime: 26 * MIN },
      { icon: '', appName: 'Browser', packageName: 'com.panel.browser', totalTime: 3.5 * MIN },
      { icon: '', appName: 'Clock', packageName: 'com.panel.clock', totalTime: 30_000 },
    ]);
    expect(day.RtpAppTotalTime).toBe(26 * MIN + 3.5 * MIN + 30_000);
    expect(day.RtpDeviceTime.slots).toHaveLength(24);
    expect(day.RtpDeviceTime.slots[9]).toEqual({
      startTime: base + 9 * HOUR,
      endTime: base + 10 * HOUR,
      totalTime: 20 * MIN,
    });
    expect(day.RtpDeviceTime.slots[10]!.totalTime).toBe(10 * MIN);
    expect(day.RtpDeviceTime.slots[11]!.totalTime).toBe(30_000);
    expect(day.RtpDeviceTime.totalTime).toBe(30 * MIN + 30_000);
  });

  it('clips reports to the range asked for', async () => {
    const later = await report({
      startTime: base + 10 * HOUR,
      endTime: base + 34 * HOUR,
      sign: 'day',
      deviceKey: 'ST-0001',
    });
    expect(later.RtpAppTime.map((a) => [a.appName, a.totalTime])).toEqual([
      ['Whiteboard', 10 * MIN],
      ['Clock', 30_000],
    ]);
    expect(later.RtpDeviceTime.slots[0]!.totalTime).toBe(10 * MIN);
  });

  it('covers the last six days and today in day slots', async () => {
    const recent = await report({
      startTime: base - 6 * DAY,
      endTime: base + DAY,
      sign: 'recent',
      deviceKey: 'ST-0001',
    });
    expect(recent.RtpDeviceTime.slots.map((s) => s.totalTime)).toEqual([
      0,
      0,
      0,
      HOUR,
      0,
      0,
      30 * MIN + 30_000,
    ]);
    expect(recent.RtpAppTime[0]).toMatchObject({ appName: 'Video', totalTime: HOUR });
    const empty = await report({
      startTime: base + 2 * DAY,
      endTime: base + 3 * DAY,
      sign: 'day',
      deviceKey: 'ST-0001',
    });
    expect(empty).toMatchObject({ RtpAppTime: [], RtpAppTotalTime: 0, RtpDeviceTime: { totalTime: 0 } });
  });

  it('refuses bad ranges and devices of other companies or none', async () => {
    const other = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
    ]);
    expect(other.customerId).not.toBe(server.accounts.customerId);
    const otherCustomer = await signedIn(server, 'b-customer', 'bcustomer123');
    const foreign = await connectBare(
      `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      await enroll(server.url, 'ST-B001', await enrollmentSecretOf(otherCustomer)),
    );
    await foreign.close();
    const good = { startTime: base, endTime: base + DAY, sign: 'day', deviceKey: 'ST-0001' };
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ ...good, endTime: base - 1 }, 'The time range is not valid'],
      [{ ...good, endTime: base + 3 * DAY }, 'The time range is not valid'],
      [{ ...good, sign: 'recent', endTime: base + 9 * DAY }, 'The time range is not valid'],
      [{ ...good, startTime: 'yesterday' }, 'The time range is not valid'],
      [{ ...good, sign: 'week' }, 'Choose today or recent'],
      [{ ...good, deviceKey: 'ST-B001' }, 'No such device'],
      [{ ...good, deviceKey: 'NOPE-0001' }, 'No such device'],
      [{ ...good, deviceKey: '../x' }, 'No such device'],
    ];
    for (const [params, message] of cases)
      expect((await ask(operator, params)).body, JSON.stringify(params)).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: message,
      });
    expect((await ask(otherCustomer, good)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such device',
    });
    const manager = await signedIn(server, 'manager1', 'manager123');
    expect((await ask(manager, good)).body.hhtStatus).toBe('fail');
  });
});
