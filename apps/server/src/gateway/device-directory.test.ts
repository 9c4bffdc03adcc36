import { describe, expect, it } from 'vitest';
import type { DeviceCredentials, DeviceRepository } from '../modules/devices/repository.js';
import { DeviceDirectory, secretHashOf } from './device-directory.js';

const row = (id: number, deviceKey: string, state = 1): DeviceCredentials => ({
  id,
  org_id: 7,
  device_key: deviceKey,
  secret_hash: secretHashOf(`pw-${deviceKey}`),
  state,
});

/** A repository answering from a fixed list and counting its queries. */
function repository(rows: DeviceCredentials[]) {
  const queries: string[][] = [];
  const devices = {
    credentialsForPanels: async (keys: string[]) => {
      queries.push(keys);
      return rows.filter((r) => keys.includes(r.device_key));
    },
  } as unknown as DeviceRepository;
  return { devices, queries };
}

describe('DeviceDirectory', () => {
  it('reads the credentials of panels asked in one turn with one query, and caches them', async () => {
    const { devices, queries } = repository([row(1, 'PANEL-1'), row(2, 'PANEL-2'), row(3, 'PANEL-3', 0)]);
    const directory = new DeviceDirectory(devices);
    const answers = await Promise.all([
      directory.verify('PANEL-1', 'pw-PANEL-1'),
      directory.verify('PANEL-2', 'wrong'),
      directory.verify('PANEL-3', 'pw-PANEL-3'),
      directory.verify('PANEL-4', 'pw-PANEL-4'),
      directory.resolve('PANEL-1'),
    ]);
    expect(answers).toEqual([true, false, false, false, { id: 1, orgId: 7, deviceKey: 'PANEL-1' }]);
    expect(queries).toEqual([['PANEL-1', 'PANEL-2', 'PANEL-3', 'PANEL-4']]);
    expect(directory.cached('PANEL-2')).toEqual({ id: 2, orgId: 7, deviceKey: 'PANEL-2' });
    expect(await directory.verify('PANEL-2', 'pw-PANEL-2')).toBe(true);
    expect(queries).toHaveLength(1);
  });

  it('does not cache what a read found when the panel was forgotten while it ran', async () => {
    const { devices, queries } = repository([row(1, 'PANEL-1')]);
    const directory = new DeviceDirectory(devices);
    const first = directory.verify('PANEL-1', 'pw-PANEL-1');
    directory.forget('PANEL-1');
    expect(await first).toBe(true);
    expect(directory.cached('PANEL-1')).toBeUndefined();
    expect(await directory.verify('PANEL-1', 'pw-PANEL-1')).toBe(true);
    expect(queries).toHaveLength(2);
  });

  it('hands a failed read to everyone waiting for it and caches nothing', async () => {
    const devices = {
      credentialsForPanels: () => Promise.reject(new Error('database away')),
    } as unknown as DeviceRepository;
    const directory = new DeviceDirectory(devices);
    const results = await Promise.allSettled([
      directory.verify('PANEL-1', 'x'),
      directory.resolve('PANEL-2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(directory.cached('PANEL-1')).toBeUndefined();
  });
});
