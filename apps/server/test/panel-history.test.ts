import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelHistory } from '@panelfleet/contract';
import { panelState } from '../src/gateway/report-groups.js';
import { DeviceStateStore } from '../src/gateway/state-store.js';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(backends)("each panel's history on %s", (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let store: DeviceStateStore;
  const ids: number[] = [];
  const rowsOf = (id: number, grp: string) =>
    server.app.db.kysely
      .selectFrom('panel_history')
      .select(['at', 'n1', 'n2', 'n3', 'txt'])
      .where('device_id', '=', id)
      .where('grp', '=', grp)
      .orderBy('at')
      .execute();
  const historyOf = async (client: TestClient, deviceId: number, from: number, to: number) =>
    client.get(`/platform/device/history?deviceId=${deviceId}&from=${from}&to=${to}`);

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    const secret = await enrollmentSecretOf(operator);
    for (let i = 0; i < 4; i++) await enroll(server.url, `HIST-${i}`, secret);
    const rows = await server.app.db.kysely
      .selectFrom('devices')
      .select('id')
      .where('device_key', 'like', 'HIST-%')
      .orderBy('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
    store = new DeviceStateStore(server.app.db.kysely, server.app.db.dialect);
  });
  afterAll(() => server.stop());

  it('writes a row per group only when a newer report changes it, with the values the row then holds', async () => {
    const id = ids[0]!;
    const t = server.clock.now() - HOUR;
    await store.apply([
      panelState(
        id,
        { brightness: 50, cpu_temperature: 40, ram_used: 100, ram_total: 1000 },
        { receivedAt: t },
      ),
    ]);
    await store.apply([panelState(id, { brightness: 50, cpu_temperature: 40 }, { receivedAt: t + 60_000 })]);
    await store.apply([panelState(id, { brightness: 60, cpu_temperature: 42 }, { receivedAt: t + 120_000 })]);
    // An older report written late changes nothing and leaves no history.
    await store.apply([panelState(id, { brightness: 10 }, { receivedAt: t + 90_000 })]);
    await store.apply([
      panelState(id, { source: 'HDMI1', power: 'on', ota_version: '1.0.0' }, { receivedAt: t + 130_000 }),
    ]);
    await store.apply([
      panelState(id, { source: 'HDMI1', ota_version: '1.1.0' }, { receivedAt: t + 140_000 }),
    ]);

    expect((await rowsOf(id, 'brightness')).map((r) => [Number(r.at), r.n1])).toEqual([
      [t, 50],
      [t + 120_000, 60],
    ]);
    // A partial telemetry report keeps the RAM the row held.
    expect((await rowsOf(id, 'telemetry')).map((r) => [r.n1, r.n2, r.n3])).toEqual([
      [40, 100, 1000],
      [42, 100, 1000],
    ]);
    expect((await rowsOf(id, 'source')).map((r) => r.txt)).toEqual(['HDMI1']);
    expect((await rowsOf(id, 'identity')).map((r) => r.txt)).toEqual(['1.0.0', '1.1.0']);
    expect(
      (
        await server.app.db.kysely
          .selectFrom('devices')
          .select('brightness')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).brightness,
    ).toBe(60);
  });

  it('answers the history of a range with presence, charts and version changes', async () => {
    const id = ids[0]!;
    const now = server.clock.now();
    await store.apply([
      panelState(id, {}, { receivedAt: now - 2 * HOUR, presence: { online: true, reason: 'connected' } }),
      panelState(id, {}, { receivedAt: now - 30 * 60_000, presence: { online: false, reason: 'keepalive' } }),
    ]);
    const reply = await historyOf(operator, id, now - 3 * HOUR, now);
    expect(reply.body.hhtStatus).toBe('success');
    const history = panelHistory.panelHistory.parse(reply.body.dataObject);
    expect(history.resolution).toBe('raw');
    expect(history.presence.map((p) => [p.online, p.reason])).toEqual([
      [true, 'connected'],
      [false, 'keepalive'],
    ]);
    expect(history.brightness.map((p) => p.n1)).toEqual([50, 60]);
    expect(history.telemetry.map((p) => p.n1)).toEqual([40, 42]);
    expect(history.firmware.map((c) => c.value)).toEqual(['1.0.0', '1.1.0']);
    expect(history.power.map((c) => c.value)).toEqual(['on']);
    expect(history.screenshots).toEqual([]);
  });

  it('folds numeric changes past the raw window into hours and deletes what is past the retention', async () => {
    const id = ids[1]!;
    const now = server.clock.now();
    const hourStart = now - 5 * DAY - ((now - 5 * DAY) % HOUR);
    const old = now - 100 * DAY;
    let at = hourStart;
    for (const b of [10, 20, 30, 40]) {
      await store.apply([panelState(id, { brightness: b }, { receivedAt: at })]);
      at += 10 * 60_000;
    }
    await store.apply([panelState(id, { brightness: 70 }, { receivedAt: now - HOUR })]);
    await server.app.db.kysely
      .insertInto('panel_history')
      .values({
        org_id: server.accounts.customerId,
        device_id: id,
        grp: 'power',
        at: old,
        n1: null,
        n2: null,
        n3: null,
        txt: 'off',
      })
      .execute();
    const before = await server.app.db.kysely
      .insertInto('panel_history_hourly')
      .values({
        org_id: server.accounts.customerId,
        device_id: id,
        grp: 'brightness',
        hour: old - (old % HOUR),
        samples: 1,
        n1: 1,
        n1_min: 1,
        n1_max: 1,
        n2: null,
        n3: null,
        txt: null,
      })
      .execute();
    expect(before).toHaveLength(1);

    const done = await server.app.panelHistory.job.runOnce();
    expect(done).not.toBeNull();
    expect(done!.folded).toBeGreaterThanOrEqual(4);
    expect(done!.deleted).toBe(2);
    expect((await rowsOf(id, 'brightness')).map((r) => r.n1)).toEqual([70]);
    const hourly = await server.app.db.kysely
      .selectFrom('panel_history_hourly')
      .selectAll()
      .where('device_id', '=', id)
      .execute();
    expect(hourly).toHaveLength(1);
    expect(hourly[0]).toMatchObject({ grp: 'brightness', samples: 4, n1: 25, n1_min: 10, n1_max: 40 });
    expect(Number(hourly[0]!.hour)).toBe(hourStart);
    expect(await rowsOf(id, 'power')).toEqual([]);

    // A month's range is read per hour: the folded hour and the last day's change, as hours.
    const reply = await historyOf(operator, id, now - 30 * DAY, now);
    const history = panelHistory.panelHistory.parse(reply.body.dataObject);
    expect(history.resolution).toBe('hour');
    expect(history.brightness.map((p) => [p.at, p.n1, p.min, p.max])).toEqual([
      [hourStart, 25, 10, 40],
      [now - HOUR - ((now - HOUR) % HOUR), 70, 70, 70],
    ]);
  });

  it("refuses another company's user, an unknown panel and a range that is too long or reversed", async () => {
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'h-operator', password: 'hoperator123', userType: '4' },
    ]);
    const other = await signedIn(server, 'h-operator', 'hoperator123');
    const now = server.clock.now();
    const foreign = await historyOf(other, ids[0]!, now - DAY, now);
    const unknown = await historyOf(operator, 999_999, now - DAY, now);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ hhtStatus: 'fail' });
    expect(foreign.body).toEqual(unknown.body);
    const long = await historyOf(operator, ids[0]!, now - 100 * DAY, now);
    expect(long.body).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'panelHistory.rangeInvalid' });
    const reversed = await historyOf(operator, ids[0]!, now, now - DAY);
    expect(reversed.body).toMatchObject({ hhtStatus: 'fail', hhtMsgKey: 'panelHistory.rangeInvalid' });
  });
});
