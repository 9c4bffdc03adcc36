/**
 * Time modes of the reports (spec 3 section 4) and the calendar buckets they group by, in a
 * named time zone (IANA, e.g. Asia/Shanghai). Pure functions: the server cuts a range into
 * buckets with them, the console computes the same bounds (week, recent) before it asks.
 */

/** Select value -> sign sent (spec 3 section 4: 1 year, 2 month, 3 day (default), 4 week, 5 recent). */
export const REPORT_MODES = { 1: 'year', 2: 'month', 3: 'day', 4: 'week', 5: 'recent' } as const;
export const REPORT_SIGNS = ['year', 'month', 'day', 'week', 'recent'] as const;
export type ReportSign = (typeof REPORT_SIGNS)[number];
export const DEFAULT_REPORT_SIGN: ReportSign = 'day';

/** How many buckets one request may cover, per mode (a longer range is refused: report.rangeTooLong). */
export const MAX_BUCKETS: Record<ReportSign, number> = { day: 366, week: 53, month: 36, year: 20, recent: 7 };
/** Recent = today and the 6 days before it (spec 3 section 9: labelled 7 days). */
export const RECENT_DAYS = 7;

/** A calendar day, zone-free. */
export interface CalendarDay {
  year: number;
  month: number; // 1-12
  day: number; // 1-31
}

export interface Bucket {
  /** First instant of the bucket (epoch ms) in the zone. */
  start: number;
  /** First instant after it. */
  end: number;
  /** The bucket's first calendar day, as yyyy-MM-dd. */
  firstDay: string;
  /** How the reports label it: 2026-11-23 (day), 2026-11-23 ~ 2026-11-29 (week), 2026-11 (month), 2026 (year). */
  label: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export const formatDay = (d: CalendarDay) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;

export function parseDay(text: string): CalendarDay {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

/** Days after 1970-01-01 (UTC calendar arithmetic, no zone involved). */
const dayNumber = (d: CalendarDay) => Math.floor(Date.UTC(d.year, d.month - 1, d.day) / 86_400_000);

export function addDays(d: CalendarDay, days: number): CalendarDay {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** 0 Monday ... 6 Sunday. */
export const weekdayMondayFirst = (d: CalendarDay) => (((dayNumber(d) + 3) % 7) + 7) % 7;

/** Monday and Sunday of the week around `d` (spec 3 section 4: a date in week mode). */
export function weekAround(d: CalendarDay): { monday: CalendarDay; sunday: CalendarDay } {
  const monday = addDays(d, -weekdayMondayFirst(d));
  return { monday, sunday: addDays(monday, 6) };
}

/** True when `zone` is a time zone this runtime knows (IANA name or UTC). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string) {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's wall-clock reading of an instant. */
export function zonedParts(epochMs: number, zone: string) {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(epochMs))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The zone's calendar day of an instant. */
export function dayIn(epochMs: number, zone: string): CalendarDay {
  const p = zonedParts(epochMs, zone);
  return { year: p.year, month: p.month, day: p.day };
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function offsetAt(epochMs: number, zone: string): number {
  const p = zonedParts(epochMs, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/** The first instant of a calendar day in the zone (daylight-saving aware). */
export function startOfDay(d: CalendarDay, zone: string): number {
  const wall = Date.UTC(d.year, d.month - 1, d.day);
  let t = wall - offsetAt(wall, zone);
  // A second pass settles days whose offset differs from the guess's (a change near midnight).
  t = wall - offsetAt(t, zone);
  return t;
}

/** The bucket `d` falls in for a mode: its first day and the first day of the next one. */
function bucketDays(d: CalendarDay, sign: ReportSign): { first: CalendarDay; next: CalendarDay } {
  switch (sign) {
    case 'year':
      return { first: { year: d.year, month: 1, day: 1 }, next: { year: d.year + 1, month: 1, day: 1 } };
    case 'month': {
      const next =
        d.month === 12 ? { year: d.year + 1, month: 1, day: 1 } : { ...d, month: d.month + 1, day: 1 };
      return { first: { ...d, day: 1 }, next };
    }
    case 'week': {
      const { monday } = weekAround(d);
      return { first: monday, next: addDays(monday, 7) };
    }
    default:
      return { first: d, next: addDays(d, 1) };
  }
}

function labelOf(first: CalendarDay, next: CalendarDay, sign: ReportSign): string {
  switch (sign) {
    case 'year':
      return pad(first.year, 4);
    case 'month':
      return `${pad(first.year, 4)}-${pad(first.month)}`;
    case 'week':
      return `${formatDay(first)} ~ ${formatDay(addDays(next, -1))}`;
    default:
      return formatDay(first);
  }
}

/**
 * The buckets from the one holding `from` to the one holding `to` (both calendar days,
 * inclusive), at most `limit` of them (one more is computed so that the caller can tell that
 * the range is too long).
 */
export function bucketsOf(
  from: CalendarDay,
  to: CalendarDay,
  sign: ReportSign,
  zone: string,
  limit = MAX_BUCKETS[sign],
): Bucket[] {
  const buckets: Bucket[] = [];
  let { first, next } = bucketDays(from, sign);
  const last = dayNumber(to);
  while (dayNumber(first) <= last && buckets.length <= limit) {
    buckets.push({
      start: startOfDay(first, zone),
      end: startOfDay(next, zone),
      firstDay: formatDay(first),
      label: labelOf(first, next, sign),
    });
    ({ first, next } = bucketDays(next, sign));
  }
  return buckets;
}

/** The range a mode covers when no dates are given: the current day, week, month, year or last 7 days. */
export function defaultRange(sign: ReportSign, today: CalendarDay): { from: CalendarDay; to: CalendarDay } {
  if (sign === 'recent') return { from: addDays(today, -(RECENT_DAYS - 1)), to: today };
  const { first, next } = bucketDays(today, sign);
  return { from: first, to: addDays(next, -1) };
}

/** Days from `from` to `to`, both included. */
export const daysBetween = (from: CalendarDay, to: CalendarDay) => dayNumber(to) - dayNumber(from) + 1;

/** Whole days, hours, minutes and seconds of a duration in ms. */
export function durationUnits(ms: number) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return {
    d: Math.floor(s / 86_400),
    h: Math.floor((s % 86_400) / 3600),
    m: Math.floor((s % 3600) / 60),
    s: s % 60,
  };
}

/**
 * A report duration in 天/小时/分钟/秒 (spec 3 section 9), or d/h/min/s: units that are 0 are
 * left out, and a duration of 0 is shown as 0. `words` are the four unit names.
 */
export function formatReportDuration(
  ms: number,
  words: { d: string; h: string; m: string; s: string },
  separator = '',
): string {
  const units = durationUnits(ms);
  const parts = (['d', 'h', 'm', 's'] as const)
    .filter((u) => units[u] > 0)
    .map((u) => `${units[u]}${words[u]}`);
  return parts.length ? parts.join(separator) : '0';
}
