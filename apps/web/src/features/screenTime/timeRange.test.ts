import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { screenTime } from '@panelfleet/contract';
import { rangeOf } from './timeRange';

describe('screen-time ranges', () => {
  const now = dayjs('2026-03-10T15:42:00').valueOf();

  it('asks for the last 24 hours today', () => {
    expect(rangeOf('day', now)).toEqual({ startTime: now - 86_400_000, endTime: now });
  });

  it('asks for six days plus today from local midnight for recent, within what the server allows', () => {
    const range = rangeOf('recent', now);
    expect(dayjs(range.startTime).format('YYYY-MM-DD HH:mm')).toBe('2026-03-04 00:00');
    expect(
      screenTime.selectRptTimeParams.safeParse({ ...range, sign: 'recent', deviceKey: 'E2E-00001' }).success,
    ).toBe(true);
  });
});
