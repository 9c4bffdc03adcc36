import { describe, expect, it } from 'vitest';
import { ageOf } from './age';

describe('the age of a picture', () => {
  it('reads in seconds, minutes, hours and days, in either language', () => {
    const now = 1_800_000_000_000;
    expect(ageOf(now - 5_000, now, 'en-US')).toBe('5 seconds ago');
    expect(ageOf(now - 3 * 60_000, now, 'en-US')).toBe('3 minutes ago');
    expect(ageOf(now - 5 * 3_600_000, now, 'en-US')).toBe('5 hours ago');
    expect(ageOf(now - 3 * 86_400_000, now, 'en-US')).toBe('3 days ago');
    expect(ageOf(now - 3 * 60_000, now, 'zh-CN')).toBe('3分钟前');
  });
});
