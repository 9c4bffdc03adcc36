import { describe, expect, it } from 'vitest';
import type { deviceDetail } from '@panelfleet/contract';
import { afterUninstall, isSelectable, renewDisabled, uninstallDisabled } from './appSelection';

const app = (
  packageName: string,
  appLevel: 0 | 1,
  status: 'normal' | 'uninstall' = 'normal',
): deviceDetail.DeviceApp => ({
  appName: packageName,
  packageName,
  versionName: '1',
  newVersionName: null,
  appSize: 1,
  appLevel,
  iconName: '',
  status,
});

describe('app selection (spec 2 section 4)', () => {
  it('lets only user apps that are not being uninstalled be ticked, and none of an offline panel', () => {
    expect(isSelectable(app('a', 0), true)).toBe(true);
    expect(isSelectable(app('s', 1), true)).toBe(false);
    expect(isSelectable(app('u', 0, 'uninstall'), true)).toBe(false);
    expect(isSelectable(app('a', 0), false)).toBe(false);
  });

  it('disables uninstall for a mix of system and user apps and for an offline panel', () => {
    expect(uninstallDisabled([app('a', 0), app('s', 1)], true)).toBe(true);
    expect(uninstallDisabled([app('a', 0), app('b', 0)], true)).toBe(false);
    expect(uninstallDisabled([], true)).toBe(false);
    expect(uninstallDisabled([app('a', 0)], false)).toBe(true);
  });

  it('removes the rows the panel confirmed and marks the others as uninstalling', () => {
    const apps = [app('a', 0), app('b', 0), app('c', 0)];
    const next = afterUninstall(apps, [
      { packageName: 'a', uninstallStatus: true },
      { packageName: 'b', uninstallStatus: false },
    ]);
    expect(next.map((a) => [a.packageName, a.status])).toEqual([
      ['b', 'uninstall'],
      ['c', 'normal'],
    ]);
  });

  it('enables Renew only when every selected app has a newer version, none is uninstalling and the panel is online', () => {
    const newer = (name: string) => ({ ...app(name, 0), newVersionName: '2' });
    expect(renewDisabled([newer('a'), newer('b')], true)).toBe(false);
    expect(renewDisabled([newer('a'), app('b', 0)], true)).toBe(true);
    expect(renewDisabled([{ ...newer('a'), status: 'uninstall' }], true)).toBe(true);
    expect(renewDisabled([newer('a')], false)).toBe(true);
    expect(renewDisabled([], true)).toBe(true);
  });
});
