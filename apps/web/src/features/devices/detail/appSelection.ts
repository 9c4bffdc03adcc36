import type { deviceDetail } from '@panelfleet/contract';

type App = deviceDetail.DeviceApp;

/** Spec 2 section 4: system apps, apps being uninstalled, and every app of an offline panel cannot be ticked. */
export const isSelectable = (app: App, online: boolean) =>
  online && app.appLevel !== 1 && app.status !== 'uninstall';

/** Uninstall is refused for a mix of system and user apps (and needs the panel online). */
export function uninstallDisabled(selected: App[], online: boolean): boolean {
  if (!online) return true;
  const system = selected.filter((a) => a.appLevel === 1).length;
  return system > 0 && system < selected.length;
}

/** After the panel's answer: confirmed rows go, the others wait as "uninstall". */
export function afterUninstall(
  apps: App[],
  appList: Array<{ packageName: string; uninstallStatus: boolean }>,
): App[] {
  const result = new Map(appList.map((a) => [a.packageName, a.uninstallStatus]));
  return apps
    .filter((a) => result.get(a.packageName) !== true)
    .map((a) => (result.get(a.packageName) === false ? { ...a, status: 'uninstall' as const } : a));
}

/**
 * Renew is enabled only when every selected app has a newer version in the APK repository, none
 * is being uninstalled and the panel is online (spec 2 section 4).
 */
export function renewDisabled(selected: App[], online: boolean): boolean {
  return (
    !online ||
    selected.length === 0 ||
    selected.some((a) => a.newVersionName === null || a.status === 'uninstall')
  );
}
