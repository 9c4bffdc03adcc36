import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { rangeOfData, recentRange, requestedDays, signOf, weekRange } from './reportRange';

describe('report ranges', () => {
  it('offers the span of the data: by day within a month, else by month, the operation log by day', () => {
    const shown = (first: string, last: string, byDayOnly = false) => {
      const { mode, range } = rangeOfData(first, last, byDayOnly);
      return [signOf(mode), ...range.map((d) => d.format('YYYY-MM-DD'))];
    };
    expect(shown('2026-11-10', '2026-11-27')).toEqual(['day', '2026-11-10', '2026-11-27']);
    expect(shown('2026-10-13', '2026-11-27')).toEqual(['month', '2026-10-13', '2026-11-27']);
    expect(shown('2020-01-01', '2026-11-27')).toEqual(['year', '2020-01-01', '2026-11-27']);
    expect(shown('2024-01-01', '2026-11-27', true)).toEqual(['day', '2025-11-27', '2026-11-27']);
    expect(requestedDays('month', { from: dayjs('2026-10-13'), to: dayjs('2026-11-27') })).toEqual({
      startTime: '2026-10-01',
      endTime: '2026-11-30',
    });
  });

  it('maps the select values to the signs of spec 3 section 4', () => {
    expect([1, 2, 3, 4, 5].map((v) => signOf(v as 1 | 2 | 3 | 4 | 5))).toEqual([
      'year',
      'month',
      'day',
      'week',
      'recent',
    ]);
  });

  it('takes recent as today and the 6 days before it', () => {
    const [from, to] = recentRange(dayjs('2026-01-14'));
    expect([from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD')]).toEqual(['2026-01-08', '2026-01-14']);
  });

  it('takes the Monday to Sunday around a week-mode date, and asks for a date without one', () => {
    expect(weekRange(dayjs('2026-01-18')).map((d) => d.format('YYYY-MM-DD'))).toEqual([
      '2026-01-12',
      '2026-01-18',
    ]);
    expect(weekRange(dayjs('2026-01-12')).map((d) => d.format('YYYY-MM-DD'))).toEqual([
      '2026-01-12',
      '2026-01-18',
    ]);
    expect(requestedDays('week', { from: null, to: null })).toBe('chooseDate');
    expect(requestedDays('week', { from: dayjs('2026-01-14'), to: null })).toEqual({
      startTime: '2026-01-12',
      endTime: '2026-01-18',
    });
  });

  it('widens month and year picks to whole periods, and sends nothing without dates', () => {
    expect(requestedDays('month', { from: dayjs('2025-12-10'), to: dayjs('2026-02-03') })).toEqual({
      startTime: '2025-12-01',
      endTime: '2026-02-28',
    });
    expect(requestedDays('year', { from: dayjs('2025-03-01'), to: dayjs('2026-01-01') })).toEqual({
      startTime: '2025-01-01',
      endTime: '2026-12-31',
    });
    expect(requestedDays('day', { from: null, to: null })).toEqual({});
  });
});
