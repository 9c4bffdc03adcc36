const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface DurationParts {
  days: number;
  hours: number;
  minutes: number;
}

/** Whole days, hours and minutes of a duration in ms (seconds are dropped). */
export function durationParts(ms: number): DurationParts {
  const total = Math.max(0, Math.floor(ms / MINUTE)) * MINUTE;
  return {
    days: Math.floor(total / DAY),
    hours: Math.floor((total % DAY) / HOUR),
    minutes: Math.floor((total % HOUR) / MINUTE),
  };
}

/**
 * A duration as days, hours and minutes (spec 2 section 9), leaving out leading zero units and
 * "<1 min" under a minute; `t` supplies the words.
 */
export function formatDuration(ms: number, t: (key: string, vars: Record<string, number>) => string): string {
  if (ms < MINUTE) return t('screenTime.underMinute', {});
  const { days, hours, minutes } = durationParts(ms);
  const parts: string[] = [];
  if (days) parts.push(t('screenTime.days', { count: days }));
  if (hours) parts.push(t('screenTime.hours', { count: hours }));
  if (minutes || !parts.length) parts.push(t('screenTime.minutes', { count: minutes }));
  return parts.join(t('screenTime.separator', {}));
}
