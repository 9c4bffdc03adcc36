import { dashboard, live } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type SeededAccounts } from '../src/dev/seed-accounts.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { openStream } from './live-helpers.js';

/**
 * Dashboards, the fleet map and the live console against real panels: every figure is checked
 * against what the test itself made (panels enrolled, connected, their reports, users signed in),
 * and every refusal of the issue (another tenant by any parameter, a stream without a session or
 * after sign-out, a history range beyond what is kept).
 */
describe.each(backends)('dashboards and live console on %s', (backend) => {
  let server: TestServer;
  let b: SeededAccounts;
  let operator: TestClient;
  let manager: TestClient;
  let sales: TestClient;
  let admin: TestClient;
  let otherOperator: TestClient;
  const panels: BareDevice[] = [];
  let mqttUrl: string;

  const dash = async (client: TestClient, query = '') => {
    const reply = await client.get(`/platform/dashboard/previewCustomerDevice${query}`);
    if (reply.body.hhtStatus !== 'success') throw new Error(reply.text);
    return dashboard.previewCustomerDevice.reply.parse(reply.body).dataObject;
  };

  async function panel(
    serial: string,
    secret: string,
    state: Parameters<typeof fullState>[0] & { noPosition?: boolean },
  ) {
    const creds = await enroll(server.url, serial, secret);
    const bare = await connectBare(mqttUrl, creds);
    panels.push(bare);
    const { noPosition, ...overrides } = state;
    const report: Record<string, unknown> = { ...fullState(overrides) };
    if (noPosition) {
      delete report.latitude;
      delete report.longitude;
    }
    await bare.client.publishAsync(`pf/v1/d/${serial}/state`, JSON.stringify(report), { qos: 1 });
    return bare;
  }

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
        live: { recheckMs: 300 },
      },
    );
    mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
    b = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-sales', password: 'bsales123', userType: '1' },
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    operator = await signedIn(server, 'operator1', 'operator123');
    manager = await signedIn(server, 'manager1', 'manager123');
    sales = await signedIn(server, 'sales1', 'sales123');
    admin = await signedIn(server, 'admin', 'admin123');
    otherOperator = await signedIn(server, 'b-operator', 'boperator123');
    const secret = await enrollmentSecretOf(operator);
    const secretB = await enrollmentSecretOf(otherOperator);
    // Company A: Shanghai, Beijing and London by position, one by IP (8.8.8.8), one unlocated, one offline.
    await panel('DASH-A-1', secret, { latitude: 31.23, longitude: 121.47, otaVersion: '1.4.2' });
    await panel('DASH-A-2', secret, { latitude: 39.9, longitude: 116.4, otaVersion: '1.4.2' });
    await panel('DASH-A-3', secret, {
      latitude: 51.51,
      longitude: -0.09,
      otaVersion: '1.5.0',
      machineType: 'oem',
    });
    await panel('DASH-A-4', secret, { noPosition: true, publicIp: '8.8.8.8', otaVersion: '1.5.0' });
    await panel('DASH-A-5', secret, { noPosition: true, publicIp: '10.1.2.3', otaVersion: '1.3.0' });
    await enroll(server.url, 'DASH-A-6', secret);
    // Company B: two panels in Guangdong.
    await panel('DASH-B-1', secretB, { latitude: 23.13, longitude: 113.26, otaVersion: '9.9.9' });
    await panel('DASH-B-2', secretB, { latitude: 23.14, longitude: 113.27, otaVersion: '9.9.9' });
    await waitFor('panels placed on the map', async () => {
      await server.app.dashboards.locator.settle();
      const rows = await server.app.db.kysely
        .selectFrom('devices')
        .select(['device_key', 'geo_source'])
        .where('device_key', 'like', 'DASH-%')
        .execute();
      return rows.filter((r) => r.geo_source !== '').length === 6;
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(panels.map((p) => p.close()));
    await server?.stop();
  });

  it("shows each company user its own company's figures, counted from the real panels and sessions", async () => {
    await server.app.dashboards.history.sample();
    for (const client of [operator, manager]) {
      const d = await dash(client);
      expect(d.scope).toBe('company');
      expect(d.deviceTotal).toBe(6);
      expect(d.activeDeviceTotal).toBe(5);
      // operator1, manager1, customer1 and newcustomer; two of them signed in here.
      expect(d.userTotal).toBe(4);
      expect(d.activeUserTotal).toBe(2);
      expect(d.mapDataCN).toEqual(
        expect.arrayContaining([
          { name: '上海', value: 1 },
          { name: '北京', value: 1 },
        ]),
      );
      expect(d.mapDataCN).toHaveLength(2);
      expect(d.mapDataNotCN).toEqual(
        expect.arrayContaining([
          { name: 'China', value: 2 },
          { name: 'United Kingdom', value: 1 },
          { name: 'United States', value: 1 },
        ]),
      );
      expect(d.knownIpData).toBe(4);
      expect(d.locatedByPosition).toBe(3);
      expect(d.unknownIpData).toBe(2);
      expect(d.otaVersionToTotal).toEqual([
        { name: '1.4.2', value: 2 },
        { name: '1.5.0', value: 2 },
        { name: '', value: 1 },
        { name: '1.3.0', value: 1 },
      ]);
      expect(d.machineTypeToTotal).toEqual([
        { name: 'x9_vn', value: 5 },
        { name: 'oem', value: 1 },
      ]);
      expect(d.offlineDays.find((o) => o.bucket === 'never')?.value).toBe(1);
      expect(d.offlineDays.reduce((s, o) => s + o.value, 0)).toBe(1);
      expect(d.systemInfo.source).toBe('fleet');
      expect(d.systemInfo.memory).toBe(Math.round((5 * 1_073_741_824) / 1024));
      expect(d.systemInfo.cpu).toBe(48.5);
      expect(d.listObject).toEqual([
        { customerId: server.accounts.customerId, name: 'Riverside School', value: 6 },
      ]);
      expect(d.weekUpgradeDevice).toHaveLength(dashboard.DASHBOARD.upgradeWeeks);
      // Nothing of company B.
      expect(JSON.stringify(d)).not.toContain('广东');
      expect(JSON.stringify(d)).not.toContain('9.9.9');
    }
  });

  it("shows a distributor its customers and the platform admin all of them, with the host's gauges only to the platform", async () => {
    const distributor = await dash(sales);
    expect(distributor.scope).toBe('distributor');
    expect(distributor.deviceTotal).toBe(6);
    expect(distributor.systemInfo.source).toBe('fleet');
    const platform = await dash(admin);
    expect(platform.scope).toBe('platform');
    expect(platform.deviceTotal).toBe(8);
    expect(platform.activeDeviceTotal).toBe(7);
    expect(platform.mapDataCN).toEqual(expect.arrayContaining([{ name: '广东', value: 2 }]));
    expect(platform.systemInfo.source).toBe('host');
    expect(platform.systemInfo.memoryTotal).toBeGreaterThan(0);
    const narrowed = await dash(admin, `?customerId=${b.customerId}`);
    expect(narrowed.deviceTotal).toBe(2);
    expect(narrowed.systemInfo.source).toBe('fleet');
  });

  it("refuses another tenant's dashboard by any parameter exactly like an unknown customer", async () => {
    for (const client of [operator, manager, sales]) {
      for (const path of ['/platform/dashboard/previewCustomerDevice', '/platform/dashboard/history']) {
        const range = `&startTime=${server.clock.now() - 3_600_000}&endTime=${server.clock.now()}`;
        const foreign = await client.get(`${path}?customerId=${b.customerId}${range}`);
        const unknown = await client.get(`${path}?customerId=987654${range}`);
        expect(foreign.status).toBe(404);
        expect(foreign.body).toEqual(unknown.body);
        expect(foreign.body.hhtMsg).toBe('Not found');
        expect(foreign.text).not.toContain('9.9.9');
      }
    }
    const own = await dash(sales, `?customerId=${server.accounts.customerId}`);
    expect(own.deviceTotal).toBe(6);
    const bad = await operator.get('/platform/dashboard/previewCustomerDevice?customerId=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.hhtMsg).toBe('The customer must be given by its number');
  });

  it('lists the located panels of the company on its map, with how each was located and its online state', async () => {
    const reply = dashboard.mapDevices.reply.parse(
      (await operator.get('/platform/dashboard/mapDevices')).body,
    );
    expect(reply.totalRecords).toBe(4);
    expect(reply.unlocated).toBe(2);
    const byKey = new Map(reply.listObject.map((d) => [d.deviceKey, d]));
    expect(byKey.get('DASH-A-1')).toMatchObject({
      source: 'gps',
      latitude: 31.23,
      longitude: 121.47,
      isOnline: '1',
    });
    expect(byKey.get('DASH-A-4')).toMatchObject({ source: 'ip', isOnline: '1' });
    expect(byKey.get('DASH-A-4')!.latitude).toBeCloseTo(37.42, 1);
    expect([...byKey.keys()].some((k) => k.startsWith('DASH-B'))).toBe(false);
    const refused = await manager.get('/platform/dashboard/mapDevices');
    expect(refused.status).toBe(403);
  });

  it('keeps history per hour and refuses a range beyond what is kept', async () => {
    const now = server.clock.now();
    const hour = now - (now % 3_600_000);
    const reply = dashboard.history.reply.parse(
      (
        await operator.get(
          `/platform/dashboard/history?period=hour&startTime=${hour - 3_600_000}&endTime=${hour + 3_600_000}`,
        )
      ).body,
    );
    expect(reply.listObject).toEqual([
      expect.objectContaining({ time: hour, deviceTotal: 6, onlineDevices: 5, userTotal: 4 }),
    ]);
    const today = now - (now % 86_400_000);
    const days = dashboard.history.reply.parse(
      (
        await operator.get(
          `/platform/dashboard/history?period=day&startTime=${today - 86_400_000}&endTime=${today + 86_400_000}`,
        )
      ).body,
    );
    // Days still kept by the hour are made of their hours.
    expect(days.listObject).toEqual([
      expect.objectContaining({ time: today, deviceTotal: 6, onlineDevices: 5, userTotal: 4 }),
    ]);
    const tooOld = await operator.get(
      `/platform/dashboard/history?period=hour&startTime=${now - 20 * 86_400_000}&endTime=${now}`,
    );
    expect(tooOld.status).toBe(400);
    expect(String(tooOld.body.hhtMsg)).toMatch(/^History is kept only from \d{4}-\d\d-\d\d/);
    const zh = await operator.request(
      'GET',
      `/platform/dashboard/history?period=day&startTime=0&endTime=${now}`,
      {
        headers: { 'accept-language': 'zh-CN' },
      },
    );
    expect(String(zh.body.hhtMsg)).toContain('历史数据仅保留自');
    const reversed = await operator.get(`/platform/dashboard/history?startTime=${now}&endTime=${now - 1}`);
    expect(reversed.body.hhtMsg).toBe('Choose a valid time range');
  });

  it('rolls hours older than the hourly period into days and deletes days older than kept', async () => {
    const db = server.app.db.kysely;
    const day = 86_400_000;
    const now = server.clock.now();
    const today = now - (now % day);
    const org = b.customerId;
    const row = (period: 'hour' | 'day', at: number, screen: number, online: number) => ({
      org_id: org,
      period,
      at,
      device_total: 2,
      online_devices: online,
      user_total: 1,
      online_users: 0,
      screen_on_ms: screen,
      ota_upgrades: 1,
      offline_lt1: 0,
      offline_1to3: 0,
      offline_3to7: 0,
      offline_7to30: 0,
      offline_gt30: 0,
      never_seen: 0,
      ram_used: 0,
      ram_total: 0,
      cpu_temperature: null,
      sampled_at: at,
    });
    const old = today - 20 * day;
    await db
      .insertInto('fleet_history')
      .values([
        row('hour', old, 1000, 1),
        row('hour', old + 3_600_000, 2000, 2),
        row('day', today - 500 * day, 5, 1),
      ])
      .execute();
    await server.app.dashboards.history.maintain(now);
    const rows = await db
      .selectFrom('fleet_history')
      .selectAll()
      .where('org_id', '=', org)
      .where('at', '<', today - 14 * day)
      .execute();
    expect(
      rows.map((r) => ({
        period: r.period,
        at: Number(r.at),
        screen: Number(r.screen_on_ms),
        online: Number(r.online_devices),
        ota: Number(r.ota_upgrades),
      })),
    ).toEqual([{ period: 'day', at: old, screen: 3000, online: 2, ota: 2 }]);
  });

  it('streams presence and command results of its own company only, at once', async () => {
    const stream = await openStream(server.url, operator);
    const other = await openStream(server.url, otherOperator);
    try {
      expect(stream.status).toBe(200);
      expect(stream.contentType).toContain('text/event-stream');
      await waitFor('ready', () => stream.events.some((e) => e.event === live.STREAM_READY));
      const secret = await enrollmentSecretOf(operator);
      const creds = await enroll(server.url, 'DASH-A-7', secret);
      const bare = await connectBare(mqttUrl, creds);
      const online = await waitFor('presence online', () =>
        stream.events.find((e) => (e.data as { deviceKey?: string }).deviceKey === 'DASH-A-7'),
      );
      expect(live.liveEvent.parse(online.data)).toMatchObject({
        type: 'presence',
        deviceKey: 'DASH-A-7',
        online: true,
      });
      expect((await dash(operator)).activeDeviceTotal).toBe(6);
      const sent = await operator.post('/sendData/sendCommandByDeviceId', {
        deviceId: String(live.presenceEvent.parse(online.data).deviceId),
        order: '00',
        value: '30',
      });
      expect(sent.body.hhtStatus).toBe('success');
      await waitFor('command result', () =>
        stream.events.find(
          (e) =>
            (e.data as { type?: string; status?: string }).type === 'command' &&
            (e.data as { status?: string }).status === 'succeeded',
        ),
      );
      await bare.close();
      await waitFor('presence offline', () =>
        stream.events.find(
          (e) =>
            (e.data as { deviceKey?: string; online?: boolean }).deviceKey === 'DASH-A-7' &&
            (e.data as { online?: boolean }).online === false,
        ),
      );
      expect((await dash(operator)).activeDeviceTotal).toBe(5);
      expect(other.events.some((e) => JSON.stringify(e.data).includes('DASH-A-7'))).toBe(false);
    } finally {
      stream.close();
      other.close();
    }
  });

  it('refuses a stream without a session and closes one at once when its session ends', async () => {
    const none = await openStream(server.url, undefined);
    expect(none.status).toBe(401);
    const user = await signedIn(server, 'customer1', 'customer123');
    const stream = await openStream(server.url, user);
    await waitFor('ready', () => stream.events.length > 0);
    const started = Date.now();
    expect((await user.post('/platform/loginOut')).body.hhtStatus).toBe('success');
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(stream.events.at(-1)).toEqual({ event: live.STREAM_END, data: { reason: 'sessionEnded' } });
    const after = await openStream(server.url, user);
    expect(after.status).toBe(401);
    expect(server.app.live.size).toBe(0);
  });

  it('closes a stream when its session expires without a request', async () => {
    const user = await signedIn(server, 'customer1', 'customer123');
    const stream = await openStream(server.url, user);
    await waitFor('ready', () => stream.events.length > 0);
    server.clock.advance(31 * 60_000);
    await stream.ended;
    expect(stream.events.at(-1)?.data).toEqual({ reason: 'sessionExpired' });
    server.clock.advance(-31 * 60_000);
  });
});
