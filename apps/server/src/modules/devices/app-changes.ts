/**
 * The history group of app changes (issue 27 item 5): a panel's history row per app installed,
 * removed or changed in version, written with the panel's app list; its `txt` holds `AppChangeText`
 * as JSON.
 */
export const APP_HISTORY_GROUP = 'app';

export interface AppChangeText {
  packageName: string;
  appName: string;
  /** The version before; null when the app was installed. */
  from: string | null;
  /** The version after; null when the app was removed. */
  to: string | null;
}

interface ListedApp {
  packageName: string;
  appName: string;
  versionName: string;
}

/**
 * What changed from one app list to the next, by package: installed, removed, or another version
 * name. A first list (nothing listed before) is where the history starts, not a change: a panel
 * enrolled with its apps did not install them all that minute.
 */
export function appChanges(before: ListedApp[], after: ListedApp[]): AppChangeText[] {
  if (!before.length) return [];
  const old = new Map(before.map((a) => [a.packageName, a]));
  const changes: AppChangeText[] = [];
  for (const app of after) {
    const had = old.get(app.packageName);
    old.delete(app.packageName);
    if (had?.versionName === app.versionName) continue;
    changes.push({
      packageName: app.packageName,
      appName: app.appName,
      from: had ? had.versionName : null,
      to: app.versionName,
    });
  }
  for (const gone of old.values())
    changes.push({ packageName: gone.packageName, appName: gone.appName, from: gone.versionName, to: null });
  return changes;
}
