import { describe, expect, it } from 'vitest';
import {
  bucketsOf,
  defaultRange,
  formatReportDuration,
  parseDay,
  startOfDay,
  weekAround,
} from './report-time.js';
import { bucketCount, reportFilter } from './calls/reports.js';

const HOUR = 3_600_000;

describe('report periods', () => {
  it('starts a day at local midnight, daylight saving included', () => {
    expect(startOfDay(parseDay('2026-01-14'), 'Asia/Shanghai')).toBe(Date.UTC(2026, 0, 13, 16));
    expect(startOfDay(parseDay('2026-07-01'), 'Europe/Berlin')).toBe(Date.UTC(2026, 5, 30, 22));
    expect(startOfDay(parseDay('2026-01-01'), 'Europe/Berlin')).toBe(Date.UTC(2025, 11, 31, 23));
    // The day Berlin moves its clocks forward is 23 hours long.
    const [day] = bucketsOf(parseDay('2026-03-29'), parseDay('2026-03-29'), 'day', 'Europe/Berlin');
    expect(day!.end - day!.start).toBe(23 * HOUR);
  });

  it('cuts a range into days, Monday-to-Sunday weeks, months and years', () => {
    const weeks = bucketsOf(parseDay('2026-01-14'), parseDay('2026-01-20'), 'week', 'UTC');
    expect(weeks.map((w) => w.label)).toEqual(['2026-01-12 ~ 2026-01-18', '2026-01-19 ~ 2026-01-25']);
    expect(
      bucketsOf(parseDay('2025-11-30'), parseDay('2026-02-01'), 'month', 'UTC').map((b) => b.label),
    ).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(
      bucketsOf(parseDay('2025-06-01'), parseDay('2026-01-01'), 'year', 'UTC').map((b) => b.label),
    ).toEqual(['2025', '2026']);
    expect(weekAround(parseDay('2026-01-18'))).toEqual({
      monday: parseDay('2026-01-12'),
      sunday: parseDay('2026-01-18'),
    });
    expect(defaultRange('recent', parseDay('2026-01-14'))).toEqual({
      from: parseDay('2026-01-08'),
      to: parseDay('2026-01-14'),
    });
    expect(bucketCount('2026-01-11', '2026-01-12', 'week')).toBe(2);
  });

  it('shows durations in 天/小时/分钟/秒, 0 as 0', () => {
    const zh = { d: '天', h: '小时', m: '分钟', s: '秒' };
    expect(formatReportDuration(0, zh)).toBe('0');
    expect(formatReportDuration(90_061_000, zh)).toBe('1天1小时1分钟1秒');
    expect(formatReportDuration(3_600_000, { d: ' d', h: ' h', m: ' min', s: ' s' }, ' ')).toBe('1 h');
  });

  it('refuses a week without a date, an end before the start and a span over the limit', () => {
    const issue = (params: Record<string, string>) =>
      reportFilter.safeParse(params).error?.issues[0]?.message;
    expect(issue({ sign: 'week' })).toBe('report.chooseDate');
    expect(issue({ sign: 'day', startTime: '2026-01-14', endTime: '2026-01-13' })).toBe(
      'report.endBeforeStart',
    );
    expect(issue({ sign: 'day', startTime: '2024-12-31', endTime: '2026-01-01' })).toBe(
      'report.rangeTooLong',
    );
    expect(issue({ sign: 'day', startTime: '2025-01-01', endTime: '2026-01-01' })).toBeUndefined();
    expect(issue({ sign: 'day', startTime: '2025-01-02', endTime: '2026-01-01' })).toBeUndefined();
    expect(issue({ sign: 'week', startTime: '2025-01-01', endTime: '2026-01-01' })).toBeUndefined();
    expect(issue({ sign: 'month', startTime: '2023-01-01', endTime: '2026-01-01' })).toBe(
      'report.rangeTooLong',
    );
    expect(issue({ sign: 'day', timeZone: 'Nowhere/City' })).toBe('report.timeZoneInvalid');
  });
});
