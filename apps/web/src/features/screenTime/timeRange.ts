import dayjs from 'dayjs';
import { screenTime } from '@panelfleet/contract';

export type Sign = screenTime.ScreenTimeSign;

/**
 * The range each tab asks for: today is the last 24 hours (hour slots); recent is the last six
 * days plus today, from local midnight six days ago (day slots).
 */
export function rangeOf(sign: Sign, now: number): { startTime: number; endTime: number } {
  if (sign === 'day') return { startTime: now - screenTime.SCREEN_TIME_SCALE.day, endTime: now };
  return { startTime: dayjs(now).startOf('day').subtract(6, 'day').valueOf(), endTime: now };
}

/** The label under a slot's bar: its hour for today, its date for recent. */
export const slotLabel = (sign: Sign, startTime: number) =>
  dayjs(startTime).format(sign === 'day' ? 'HH:00' : 'MM-DD');
