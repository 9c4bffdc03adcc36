import dayjs, { type Dayjs } from 'dayjs';
import { reportTime } from '@panelfleet/contract';

export type ReportSign = reportTime.ReportSign;

/** The select's values (spec 3 section 4): 1 year, 2 month, 3 day (default), 4 week, 5 recent. */
export const MODE_VALUES = [3, 4, 2, 1, 5] as const;
export type ModeValue = keyof typeof reportTime.REPORT_MODES;
export const DEFAULT_MODE: ModeValue = 3;
export const signOf = (mode: ModeValue): ReportSign => reportTime.REPORT_MODES[mode];

const DAY = 'YYYY-MM-DD';

/** Recent 7 days: today and the 6 days before it. */
export function recentRange(today: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [today.subtract(reportTime.RECENT_DAYS - 1, 'day').startOf('day'), today.startOf('day')];
}

/** Monday to Sunday around a date (spec 3 section 4: a date in week mode). */
export function weekRange(date: Dayjs): [Dayjs, Dayjs] {
  const day = reportTime.parseDay(date.format(DAY));
  const { monday, sunday } = reportTime.weekAround(day);
  return [dayjs(reportTime.formatDay(monday)), dayjs(reportTime.formatDay(sunday))];
}

export interface PickedRange {
  /** Day range (day, recent), or month/year range (first and last pick); week uses only the first. */
  from: Dayjs | null;
  to: Dayjs | null;
}

/**
 * The days a report is asked for: yyyy-MM-dd start and end, or nothing (the server then takes the
 * current period); 'chooseDate' when week mode has no date (请选择日期).
 */
export function requestedDays(
  sign: ReportSign,
  picked: PickedRange,
): { startTime?: string; endTime?: string } | 'chooseDate' {
  const { from, to } = picked;
  if (sign === 'week') {
    if (!from) return 'chooseDate';
    const [monday, sunday] = weekRange(from);
    return { startTime: monday.format(DAY), endTime: sunday.format(DAY) };
  }
  if (!from || !to) return {};
  switch (sign) {
    case 'year':
      return { startTime: from.startOf('year').format(DAY), endTime: to.endOf('year').format(DAY) };
    case 'month':
      return { startTime: from.startOf('month').format(DAY), endTime: to.endOf('month').format(DAY) };
    default:
      return { startTime: from.format(DAY), endTime: to.format(DAY) };
  }
}

/** The console's time zone (IANA name): the report's days, weeks, months and years are its. */
export const consoleTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Days a day-mode range shows before the data's span is shown by month. */
const DAYS_BY_DAY = 31;

/**
 * The mode and range that show a report's data (its first and last day with data): by day when
 * it spans a month at most, else by month (by year beyond 36 months). The operation log is read
 * by day only: its last 366 days.
 */
export function rangeOfData(
  firstDay: string,
  lastDay: string,
  byDayOnly: boolean,
): { mode: ModeValue; range: [Dayjs, Dayjs] } {
  const last = dayjs(lastDay);
  const first = dayjs(firstDay);
  const days = last.diff(first, 'day') + 1;
  if (byDayOnly || days <= DAYS_BY_DAY) {
    const limit = reportTime.MAX_BUCKETS.day - 1;
    return { mode: 3, range: [days > limit + 1 ? last.subtract(limit, 'day') : first, last] };
  }
  const months = (last.year() - first.year()) * 12 + last.month() - first.month() + 1;
  if (months <= reportTime.MAX_BUCKETS.month) return { mode: 2, range: [first, last] };
  return { mode: 1, range: [first, last] };
}
