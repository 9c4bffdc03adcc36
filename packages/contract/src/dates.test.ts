import { describe, expect, it } from 'vitest';
import { dayBounds, isCalendarDate, optionalCalendarDate, utcOffsetParam } from './dates.js';

describe('day filters', () => {
  it('accepts real calendar days only', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(isCalendarDate('2024-13-45')).toBe(false);
    expect(isCalendarDate('2024-1-5')).toBe(false);
    expect(isCalendarDate('yesterday')).toBe(false);
  });

  it('reads an empty filter as none and refuses a bad day with the date message', () => {
    const day = optionalCalendarDate();
    expect(day.parse('')).toBeUndefined();
    expect(day.parse(undefined)).toBeUndefined();
    expect(day.parse(' 2026-11-21 ')).toBe('2026-11-21');
    expect(day.safeParse('2026-02-30').error?.issues[0]?.message).toBe('common.invalidDate');
    expect(day.safeParse(20261121).error?.issues[0]?.message).toBe('common.invalidDate');
  });

  it('makes a day the caller’s day: Beijing’s 21 November starts at 16:00 UTC the day before', () => {
    expect(dayBounds('2026-11-21')).toEqual({ from: Date.UTC(2026, 10, 21), to: Date.UTC(2026, 10, 22) });
    expect(dayBounds('2026-11-21', 480)).toEqual({
      from: Date.UTC(2026, 10, 20, 16),
      to: Date.UTC(2026, 10, 21, 16),
    });
    expect(dayBounds('2026-11-21', -300).from).toBe(Date.UTC(2026, 10, 21, 5));
  });

  it('takes offsets of real zones only', () => {
    expect(utcOffsetParam.parse('345')).toBe(345);
    expect(utcOffsetParam.safeParse('900').error?.issues[0]?.message).toBe('common.invalidUtcOffset');
    expect(utcOffsetParam.safeParse('1.5').success).toBe(false);
  });
});
