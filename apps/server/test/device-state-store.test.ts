import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergePanelStates, panelState } from '../src/gateway/report-groups.js';
import { DeviceStateStore } from '../src/gateway/state-store.js';
import { stateToColumns } from '../src/modules/devices/state-columns.js';
import { backends, startServer, type TestServer } from './harness.js';
import { enroll, enrollmentSecretOf, fullState, operatorClient } from './device-helpers.js';

describe.each(backends)('set-based device state writes on %s', (backend) => {
  let server: TestServer;
  const ids: number[] = [];
  const rowOf = (id: number) =>
    server.app.db.kysely.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    server = await startServer(backend);
    const secret = await enrollmentSecretOf(await operatorClient(server));
    for (let i = 0; i < 12; i++) await enroll(server.url, `STORE-${i}`, secret);
    const rows = await server.app.db.kysely
      .selectFrom('devices')
      .select('id')
      .where('device_key', 'like', 'STORE-%')
      .orderBy('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  });
  afterAll(() => server.stop());

  it('writes rows with different column sets and values, in chunks, leaving other columns alone', async () => {
    // Chunks of 2 rows at most: the 6-row telemetry group takes three statements.
    const store = new DeviceStateStore(server.app.db.kysely, server.app.db.dialect, 2);
    const full = stateToColumns(fullState({ model: "PF-86 'quoted'", volume: 7, mute: true }));
    await store.apply([panelState(ids[0]!, full, { receivedAt: 111 })]);
    await store.apply([
      ...ids
        .slice(1, 7)
        .map((id, i) =>
          panelState(
            id,
            { cpu_temperature: 40.5 + i, ram_used: 1_000_000 * (i + 1) },
            { receivedAt: 222 + i },
          ),
        ),
      panelState(ids[0]!, { brightness: 12, power: 'standby' }, { receivedAt: 300 }),
      panelState(ids[1]!, {}, { receivedAt: 50 }),
    ]);
    const first = await rowOf(ids[0]!);
    expect(first).toMatchObject({
      model: "PF-86 'quoted'",
      volume: 7,
      mute: 1,
      brightness: 12,
      power: 'standby',
      last_seen_at: 300,
      cpu_temperature: 48.5,
      ram_total: 4_294_967_296,
      mac: '02:00:00:aa:bb:01',
      brightness_reported_at: 300,
      telemetry_reported_at: 111,
    });
    for (let i = 1; i < 7; i++) {
      expect(await rowOf(ids[i]!)).toMatchObject({
        cpu_temperature: 40.5 + i - 1,
        ram_used: 1_000_000 * i,
        last_seen_at: 222 + i - 1,
        brightness: null,
        model: 'PF-86',
      });
    }
  });

  it('keeps the newer report when an older one of the same panel is written after it', async () => {
    const store = new DeviceStateStore(server.app.db.kysely, server.app.db.dialect);
    const id = ids[7]!;
    // Newer: telemetry and volume at 2,000. Older, written second: telemetry, volume and brightness at 1,000.
    await store.apply([
      panelState(id, { cpu_temperature: 55, ram_used: 2, volume: 30, mute: 0 }, { receivedAt: 2_010 }),
    ]);
    await store.apply([
      panelState(
        id,
        { cpu_temperature: 41, ram_used: 1, volume: 10, mute: 1, brightness: 60 },
        { receivedAt: 1_010 },
      ),
    ]);
    expect(await rowOf(id)).toMatchObject({
      cpu_temperature: 55,
      ram_used: 2,
      volume: 30,
      mute: 0,
      // The newer report did not carry it: the older one's value is the newest there is.
      brightness: 60,
      last_seen_at: 2_010,
      telemetry_reported_at: 2_010,
      sound_reported_at: 2_010,
      brightness_reported_at: 1_010,
    });
    // Out of order within one batch, as two rows of one statement shape.
    await store.apply([
      panelState(ids[8]!, { ram_used: 9 }, { receivedAt: 5_000 }),
      panelState(id, { ram_used: 3 }, { receivedAt: 1_500 }),
    ]);
    expect((await rowOf(id)).ram_used).toBe(2);
    await store.apply([panelState(id, { ram_used: 4 }, { receivedAt: 2_010 })]);
    expect((await rowOf(id)).ram_used).toBe(4);
  });

  it('orders the reports of one boot by uptime, whatever instance received them when, and a reboot by receive time', async () => {
    const store = new DeviceStateStore(server.app.db.kysely, server.app.db.dialect);
    const id = ids[9]!;
    const boot = 1_000_000; // on the server's clock
    const report = (brightness: number, uptimeMs: number, receivedAt: number, ts?: number) =>
      store.apply([
        panelState(id, { brightness }, { receivedAt, uptimeMs, ...(ts !== undefined ? { ts } : {}) }),
      ]);
    const row = async () => {
      const r = await rowOf(id);
      return {
        brightness: r.brightness,
        anchor: r.boot_anchor,
        offset: r.clock_offset_ms,
        at: r.clock_offset_at,
      };
    };
    // The first report after the boot anchors it; its wall clock is ten minutes behind.
    await report(1, 1_000, boot + 1_000, boot + 1_000 - 600_000);
    expect(await row()).toEqual({ brightness: 1, anchor: boot, offset: -600_000, at: boot + 1_000 });
    await report(3, 3_000, boot + 3_000);
    // Made before the one above, but received later by a slow instance (0.5 s behind): older all the same.
    await report(2, 2_000, boot + 3_500, boot + 3_500);
    expect(await row()).toEqual({ brightness: 3, anchor: boot, offset: 0, at: boot + 3_500 });
    // A reboot a minute later: uptime starts again, the receive time orders it after the old boot.
    await report(5, 500, boot + 61_000);
    expect(await row()).toMatchObject({ brightness: 5, anchor: boot + 60_500 });
    // A report of the old boot, received in time but written late (it waited for the database), changes nothing.
    await report(4, 4_000, boot + 4_000);
    expect(await row()).toMatchObject({ brightness: 5, anchor: boot + 60_500 });
    await report(6, 900, boot + 61_400);
    expect(await row()).toMatchObject({ brightness: 6, anchor: boot + 60_500 });
  });

  it.each([
    ['two report groups', 10, false],
    ['three report groups (SQLite decides per row first)', 11, true],
  ])(
    "places a panel's first batch by the uptime of its newest report, not of the boot it carries (%s)",
    async (_, index, withBrightness) => {
      // Instance B merged reports 2 and 40 of a panel that no instance had written yet: the boot
      // comes with report 2, the values are report 40's. Instance A then writes report 38.
      const store = new DeviceStateStore(server.app.db.kysely, server.app.db.dialect);
      const id = ids[index]!;
      const receivedAt = 5_000_000; // every report received in the same millisecond
      const report = (n: number, anchorsBoot = true) =>
        panelState(
          id,
          { volume: n, ram_used: n, ...(withBrightness ? { brightness: n } : {}) },
          { receivedAt, uptimeMs: 60_000 + n, anchorsBoot },
        );
      await store.apply([mergePanelStates(report(2), report(40, false))]);
      await store.apply([report(38)]);
      expect(await rowOf(id)).toMatchObject({ volume: 40, ram_used: 40, boot_anchor: receivedAt - 60_002 });
      await store.apply([report(41, false)]);
      expect(await rowOf(id)).toMatchObject({ volume: 41, ram_used: 41 });
    },
  );

  it('refuses a column that is not a report column', () => {
    expect(() => panelState(ids[0]!, { name: 'renamed' } as never, { receivedAt: 1 })).toThrow(
      /not a report column: name/,
    );
  });

  it('writes overlapping batches of two instances at once without a deadlock', async () => {
    // Each batch holds two shapes, written one statement each; the second batch meets the same
    // rows in the opposite order, as two instances receiving the same panels' reports can.
    const store = new DeviceStateStore(server.app.db.kysely, server.app.db.dialect);
    const [low, high] = [ids.slice(0, 5), ids.slice(5, 10)];
    const batch = (telemetry: number[], brightness: number[], at: number) => [
      ...telemetry.map((id) => panelState(id, { cpu_temperature: 30 + (at % 10) }, { receivedAt: at })),
      ...brightness.map((id) => panelState(id, { brightness: at % 100 }, { receivedAt: at })),
    ];
    for (let round = 0; round < 20; round++) {
      const at = 10_000 + round * 10;
      const results = await Promise.allSettled([
        store.apply(batch(low, high, at)),
        store.apply(batch(high, low, at + 1)),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    }
  });
});
