import { describe, expect, it } from 'vitest';
import { device } from '@panelfleet/contract';
import { fromFilter, hasCondition, toFilter } from './filterForm';

describe('the dynamic label filter form', () => {
  it('turns only the fields filled in into conditions', () => {
    expect(toFilter({ groupName: 'x', online: 'any', lastSeen: 'any', machineTypes: [' '] })).toEqual({});
    expect(hasCondition(toFilter({ online: 'any' }))).toBe(false);
    const filter = toFilter({
      machineTypes: ['PF-A'],
      versionMin: ' 1.2 ',
      packageName: 'com.example.player',
      appVersion: '2.0',
      online: 'offline',
      lastSeen: 'notWithin',
      lastSeenMinutes: 60,
      province: 'Zhejiang',
      namePattern: 'hall*',
      notLabels: [3],
    });
    expect(filter).toEqual({
      machineTypes: ['PF-A'],
      firmware: { min: '1.2' },
      app: { packageName: 'com.example.player', versionName: '2.0' },
      online: false,
      lastSeen: { within: 'notWithin', minutes: 60 },
      region: { province: 'Zhejiang' },
      namePattern: 'hall*',
      notLabels: [3],
    });
    // What the form makes, the contract takes.
    expect(device.labelFilter.safeParse(filter).success).toBe(true);
  });

  it('reads a saved filter back into the same conditions', () => {
    const saved: device.LabelFilter = {
      firmware: { versions: ['1.0', '1.1'], max: '2.0' },
      online: true,
      lastSeen: { within: 'within', minutes: 15 },
      region: { country: 'China' },
      serialPattern: 'PF-*',
      hasLabels: [1, 2],
    };
    expect(toFilter(fromFilter('Label', saved))).toEqual(saved);
  });
});
