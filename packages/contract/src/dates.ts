import { z } from 'zod';

/**
 * Days as list filters send them (yyyy-MM-dd, e.g. createDate). A day is the caller's day:
 * the console sends its offset from UTC on that date, and the server turns both into a
 * range of epoch milliseconds.
 */

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True for a real calendar day written yyyy-MM-dd (2024-02-29 yes, 2023-02-29 and 2024-13-45 no). */
export function isCalendarDate(text: string): boolean {
  if (!DAY_PATTERN.test(text)) return false;
  const start = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(start) && new Date(start).toISOString().slice(0, 10) === text;
}

/** An optional day filter: empty means none; anything else must be a real yyyy-MM-dd day. */
export const optionalCalendarDate = (errorKey = 'common.invalidDate') =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.string({ error: errorKey }).trim().refine(isCalendarDate, { error: errorKey }).optional(),
  );

/** Minutes east of UTC of the caller's clock on the day asked for (dayjs's utcOffset()). */
export const utcOffsetParam = z.coerce
  .number({ error: 'common.invalidUtcOffset' })
  .int({ error: 'common.invalidUtcOffset' })
  .min(-14 * 60, { error: 'common.invalidUtcOffset' })
  .max(14 * 60, { error: 'common.invalidUtcOffset' });

/** The day as [from, to) epoch milliseconds, in a zone `utcOffsetMinutes` east of UTC. */
export function dayBounds(day: string, utcOffsetMinutes = 0): { from: number; to: number } {
  const from = Date.parse(`${day}T00:00:00Z`) - utcOffsetMinutes * 60_000;
  return { from, to: from + DAY_MS };
}
