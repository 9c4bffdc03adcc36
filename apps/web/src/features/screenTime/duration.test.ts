import { describe, expect, it } from 'vitest';
import { durationParts, formatDuration } from './duration';

const words: Record<string, string> = {
  'screenTime.underMinute': '<1 min',
  'screenTime.days': '{{count}} d',
  'screenTime.hours': '{{count}} h',
  'screenTime.minutes': '{{count}} min',
  'screenTime.separator': ' ',
};
const t = (key: string, vars: Record<string, number>) => words[key]!.replace('{{count}}', String(vars.count));

describe('durations as days, hours and minutes', () => {
  it('says <1 min under a minute', () => {
    expect(formatDuration(0, t)).toBe('<1 min');
    expect(formatDuration(59_999, t)).toBe('<1 min');
  });

  it('leaves out zero units and drops seconds', () => {
    expect(formatDuration(60_000, t)).toBe('1 min');
    expect(formatDuration(3_600_000, t)).toBe('1 h');
    expect(formatDuration(3_660_000 + 59_000, t)).toBe('1 h 1 min');
    expect(formatDuration(86_400_000 * 2 + 5 * 60_000, t)).toBe('2 d 5 min');
    expect(durationParts(90_061_000)).toEqual({ days: 1, hours: 1, minutes: 1 });
  });
});
