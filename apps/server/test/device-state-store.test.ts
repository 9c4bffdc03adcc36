import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { panelState } from '../src/gateway/report-groups.js';
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
    for (let i = 0; i < 9; i++) await enroll(server.url, `STORE-${i}`, secret);
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
    await store.apply([panelState(ids[0]!, full, 100, 111)]);
    await store.apply([
      ...ids
        .slice(1, 7)
        .map((id, i) =>
          panelState(id, { cpu_temperature: 40.5 + i, ram_used: 1_000_000 * (i + 1) }, 200, 222 + i),
        ),
      panelState(ids[0]!, { brightness: 12, power: 'standby' }, 300, 90),
      panelState(ids[1]!, {}, 50, 50),
    ]);
    const first = await rowOf(ids[0]!);
    expect(first).toMatchObject({
      model: "PF-86 'quoted'",
      volume: 7,
      mute: 1,
      brightness: 12,
      power: 'standby',
      last_seen_at: 111,
      cpu_temperature: 48.5,
      ram_total: 4_294_967_296,
      mac: '02:00:00:aa:bb:01',
      brightness_reported_at: 300,
      telemetry_reported_at: 100,
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
      panelState(id, { cpu_temperature: 55, ram_used: 2, volume: 30, mute: 0 }, 2_000, 2_010),
    ]);
    await store.apply([
      panelState(id, { cpu_temperature: 41, ram_used: 1, volume: 10, mute: 1, brightness: 60 }, 1_000, 1_010),
    ]);
    expect(await rowOf(id)).toMatchObject({
      cpu_temperature: 55,
      ram_used: 2,
      volume: 30,
      mute: 0,
      // The newer report did not carry it: the older one's value is the newest there is.
      brightness: 60,
      last_seen_at: 2_010,
      telemetry_reported_at: 2_000,
      sound_reported_at: 2_000,
      brightness_reported_at: 1_000,
    });
    // Out of order within one batch, as two rows of one statement shape.
    await store.apply([
      panelState(ids[8]!, { ram_used: 9 }, 5_000, 5_000),
      panelState(id, { ram_used: 3 }, 1_500, 1_500),
    ]);
    expect((await rowOf(id)).ram_used).toBe(2);
    await store.apply([panelState(id, { ram_used: 4 }, 2_000, 2_000)]);
    expect((await rowOf(id)).ram_used).toBe(4);
  });

  it('refuses a column that is not a report column', () => {
    expect(() => panelState(ids[0]!, { name: 'renamed' } as never, 1, 1)).toThrow(
      /not a report column: name/,
    );
  });
});
