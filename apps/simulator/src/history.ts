import type { device } from '@panelfleet/contract';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A small deterministic generator, so one panel's history is the same on every start. */
function seeded(seed: string) {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h ^= h >>> 16) >>> 0) / 4294967296;
  };
}

export interface HistoryReports {
  usage: device.AppUsageReport[];
  logs: device.AbnormalLog[];
}

/**
 * The usage and abnormal logs a panel kept while it was not connected, for the `days` before
 * `now` (protocol 5.3: unsent records are sent when back online). Each report's id is made from
 * the panel and the hour it covers, so sending the history again (a restart of the demo) stores
 * nothing twice. School days: on from 8:00 for 6 to 9 hours (UTC), a few apps in turn.
 */
export function historyReports(
  serial: string,
  model: string,
  apps: Array<Pick<device.InstalledApp, 'packageName' | 'appName' | 'appLevel'>>,
  days: number,
  now: number,
): HistoryReports {
  const userApps = apps.filter((a) => a.appLevel === 0);
  const random = seeded(serial);
  const usage: device.AppUsageReport[] = [];
  const logs: device.AbnormalLog[] = [];
  const today = Math.floor(now / DAY) * DAY;
  for (let d = days; d >= 1; d--) {
    const day = today - d * DAY;
    const weekday = new Date(day).getUTCDay();
    if ((weekday === 0 || weekday === 6) && random() < 0.8) continue;
    const hours = 6 + Math.floor(random() * 4);
    for (let h = 0; h < hours; h++) {
      const from = day + (8 + h) * HOUR;
      const screenOnMs = Math.round(HOUR * (0.6 + random() * 0.4));
      const records: device.AppUsageReport['records'] = [];
      let at = from;
      for (const app of userApps) {
        if (random() < 0.5) continue;
        const durationMs = Math.min(Math.round(random() * 25 * 60_000), from + HOUR - at);
        if (durationMs <= 0) break;
        records.push({ packageName: app.packageName, appName: app.appName, startedAt: at, durationMs });
        at += durationMs;
      }
      usage.push({ v: 1, id: `${serial}-u-${from}`, from, to: from + HOUR, screenOnMs, records });
      const crashed = records[0];
      if (crashed && random() < 0.04)
        logs.push({
          v: 1,
          id: `${serial}-l-${from}`,
          fileName: `anr-${from}.txt`,
          appName: crashed.appName,
          model,
          occurredAt: from + 17 * 60_000,
          text: `ANR in ${crashed.packageName}\nReason: Input dispatching timed out (waiting to send key event)\n`,
        });
    }
  }
  return { usage, logs };
}
