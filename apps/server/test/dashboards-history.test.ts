import { dashboard, reports } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBare, enroll, enrollmentSecretOf, waitFor, type BareDevice } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * The dashboards' 14-day and weekly figures come from what is stored, however far back it goes
 * (panels report the hours they kept while offline; a deployment had rollouts before its history
 * began), not from the day the history table started. Counts of panels and users, which only a
 * sample knows, are left unknown for the days nobody sampled.
 */
describe.each(backends)('dashboard history from the stored data on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let panel: BareDevice;
  let deviceId: number;
  let today: number;

  const usage = (id: string, at: number, screenOnMs: number) =>
    panel.client.publishAsync(
      'pf/v1/d/HIST-0001/usage',
      JSON.stringify({ v: 1, id, from: at, to: at + screenOnMs, screenOnMs, records: [] }),
      { qos: 1 },
    );
  const stored = (reportId: string) =>
    waitFor(`usage ${reportId} stored`, () =>
      server.app.db.kysely
        .selectFrom('screen_time')
        .select('id')
        .where('report_id', '=', reportId)
        .executeTakeFirst(),
    );
  const days = async () =>
    dashboard.history.reply.parse(
      (
        await operator.get(
          `/platform/dashboard/history?period=day&startTime=${today - 13 * DAY}&endTime=${today + DAY}`,
        )
      ).body,
    ).listObject;

  beforeAll(async () => {
    server = await startServer(backend);
    const now = server.clock.now();
    today = now - (now % DAY);
    operator = await signedIn(server, 'operator1', 'operator123');
    const credentials = await enroll(server.url, 'HIST-0001', await enrollmentSecretOf(operator));
    panel = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, credentials);
    deviceId = (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'HIST-0001')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await panel.close();
    await server.stop();
  });

  it('shows the screen time panels reported for past days, and leaves their unsampled counts unknown', async () => {
    // Kept while offline: ten days ago and three days ago, reported now.
    await usage('hist-usage-10d', today - 10 * DAY + 9 * HOUR, 2 * HOUR);
    await usage('hist-usage-3d', today - 3 * DAY + 14 * HOUR, HOUR);
    await stored('hist-usage-10d');
    await stored('hist-usage-3d');
    await server.app.dashboards.history.sample();
    const points = await days();
    const at = (day: number) => points.find((p) => p.time === today - day * DAY);
    expect(at(10)).toMatchObject({ screenOnMs: 2 * HOUR, onlineDevices: null, deviceTotal: null });
    expect(at(3)).toMatchObject({ screenOnMs: HOUR, onlineDevices: null });
    // Today was sampled: its counts are known.
    expect(points.find((p) => p.time === today)).toMatchObject({ deviceTotal: 1, onlineDevices: 1 });

    // A later report of the same day adds to it, once, however often the history runs.
    await usage('hist-usage-10d-b', today - 10 * DAY + 15 * HOUR, HOUR);
    await stored('hist-usage-10d-b');
    await server.app.dashboards.history.sample();
    await server.app.dashboards.history.sample();
    expect((await days()).find((p) => p.time === today - 10 * DAY)?.screenOnMs).toBe(3 * HOUR);
  });

  it('counts the OTA installs of the weeks before the history began in the weekly line', async () => {
    const settled = today - 20 * DAY + 10 * HOUR;
    await server.app.db.kysely
      .insertInto('commands')
      .values({
        id: '0190a0a0-0000-7000-8000-000000000001',
        org_id: server.accounts.customerId,
        device_id: deviceId,
        order_code: 'OTA',
        value: '{}',
        status: 'succeeded',
        detail: '',
        created_by: null,
        relay_for: null,
        created_at: settled - HOUR,
        updated_at: settled,
        expires_at: settled + DAY,
      })
      .execute();
    // A fresh history (the table that starts today) takes in what the commands say.
    await server.app.db.kysely.deleteFrom('history_backfill').execute();
    await server.app.dashboards.history.sample();
    const figures = dashboard.previewCustomerDevice.reply.parse(
      (await operator.get('/platform/dashboard/previewCustomerDevice')).body,
    ).dataObject;
    const weekOf = (t: number) => {
      const day = t - (t % DAY);
      return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
    };
    const week = new Date(weekOf(settled)).toISOString().slice(0, 10);
    expect(figures.weekUpgradeDevice.find((w) => w.createDate === week)?.total).toBe(1);
  });

  it("offers the reports the days the panels' data span", async () => {
    const range = async (report: string, timeZone = 'UTC') =>
      reports.reportDataRange.reply.parse(
        (await operator.get(`/report/dataRange?report=${report}&timeZone=${timeZone}`)).body,
      ).dataObject;
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    expect(await range('deviceTime')).toEqual({
      firstDay: day(today - 10 * DAY),
      lastDay: day(today - 3 * DAY),
    });
    // 14:00 UTC three days ago is the next day in Auckland (UTC+12 or +13).
    expect((await range('deviceTime', 'Pacific/Auckland')).lastDay).toBe(day(today - 2 * DAY));
    expect(await range('errorLog')).toEqual({ firstDay: null, lastDay: null });
    const wrong = await operator.get('/report/dataRange?report=everything&timeZone=UTC');
    expect(wrong.status).toBe(400);
  });
});
