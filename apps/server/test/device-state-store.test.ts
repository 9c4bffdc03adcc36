import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    for (let i = 0; i < 7; i++) await enroll(server.url, `STORE-${i}`, secret);
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
    await store.apply([
      {
        id: ids[0]!,
        set: {
          ...stateToColumns(fullState({ model: "PF-86 'quoted'", volume: 7, mute: true })),
          last_seen_at: 111,
        },
      },
    ]);
    await store.apply([
      ...ids.slice(1).map((id, i) => ({
        id,
        set: { cpu_temperature: 40.5 + i, ram_used: 1_000_000 * (i + 1), last_seen_at: 222 + i },
      })),
      { id: ids[0]!, set: { brightness: 12, power: 'standby' } },
      { id: ids[1]!, set: {} },
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
    });
    for (let i = 1; i < ids.length; i++) {
      expect(await rowOf(ids[i]!)).toMatchObject({
        cpu_temperature: 40.5 + i - 1,
        ram_used: 1_000_000 * i,
        last_seen_at: 222 + i - 1,
        brightness: null,
        model: 'PF-86',
      });
    }
  });

  it('refuses a column that is not a report column', async () => {
    const store = new DeviceStateStore(server.app.db.kysely, server.app.db.dialect);
    await expect(store.apply([{ id: ids[0]!, set: { name: 'renamed' } }])).rejects.toThrow(
      /not a report column: name/,
    );
    expect((await rowOf(ids[0]!)).name).not.toBe('renamed');
  });
});
