import { screenTime } from '@panelfleet/contract';
import type { z } from 'zod';
import { Refusal } from '../../refusal.js';
import type { ScreenTimeRepository } from './repository.js';

type Query = z.output<typeof screenTime.selectRptTimeParams>;

export interface ScreenTimeReport {
  RtpAppTime: screenTime.RtpAppTime[];
  RtpAppTotalTime: number;
  RtpDeviceTime: screenTime.RtpDeviceTime;
}

/** Milliseconds of [start, end) that fall inside [from, to). */
export const overlap = (start: number, end: number, from: number, to: number) =>
  Math.max(0, Math.min(end, to) - Math.max(start, from));

/** The range cut into slots of `width` (the last one may be shorter). */
export function slotsOf(
  from: number,
  to: number,
  width: number,
): Array<{ startTime: number; endTime: number }> {
  const slots = [];
  for (let start = from; start < to; start += width)
    slots.push({ startTime: start, endTime: Math.min(start + width, to) });
  return slots;
}

/**
 * Screen time of one panel (spec 2: runtime modal), built from its app-usage reports: app
 * foreground records and screen-on intervals are clipped to the asked range; an interval that
 * straddles slots is shared out in proportion to its overlap with each.
 */
export class ScreenTimeService {
  constructor(private readonly repository: ScreenTimeRepository) {}

  async report(orgId: number, query: Query): Promise<ScreenTimeReport> {
    const found = await this.repository.deviceByKey(orgId, query.deviceKey);
    if (!found) throw new Refusal('device.notFound', 'notFound');
    const { startTime: from, endTime: to } = query;
    const [usage, screen, icons] = await Promise.all([
      this.repository.appUsage(orgId, found.id, from, to),
      this.repository.screenOn(orgId, found.id, from, to),
      this.repository.icons(orgId, found.id),
    ]);

    const apps = new Map<string, screenTime.RtpAppTime>();
    for (const record of usage) {
      const inRange = overlap(record.started_at, record.started_at + record.duration_ms, from, to);
      if (inRange === 0) continue;
      const app = apps.get(record.package_name) ?? {
        icon: icons.get(record.package_name) ?? '',
        appName: record.app_name,
        packageName: record.package_name,
        totalTime: 0,
      };
      // Records come oldest first: the name the panel used last wins.
      app.appName = record.app_name;
      app.totalTime += inRange;
      apps.set(record.package_name, app);
    }
    const appTimes = [...apps.values()].sort(
      (a, b) => b.totalTime - a.totalTime || a.appName.localeCompare(b.appName),
    );

    const slots = slotsOf(from, to, screenTime.SCREEN_TIME_SLOT[query.sign]).map((s) => ({
      ...s,
      totalTime: 0,
    }));
    for (const interval of screen) {
      const length = interval.to_at - interval.from_at;
      for (const slot of slots) {
        const share =
          length > 0
            ? (overlap(interval.from_at, interval.to_at, slot.startTime, slot.endTime) / length) *
              interval.screen_on_ms
            : interval.from_at >= slot.startTime && interval.from_at < slot.endTime
              ? interval.screen_on_ms
              : 0;
        slot.totalTime += share;
      }
    }
    const rounded = slots.map((s) => ({ ...s, totalTime: Math.round(s.totalTime) }));
    return {
      RtpAppTime: appTimes,
      RtpAppTotalTime: appTimes.reduce((sum, a) => sum + a.totalTime, 0),
      RtpDeviceTime: { totalTime: rounded.reduce((sum, s) => sum + s.totalTime, 0), slots: rounded },
    };
  }
}
