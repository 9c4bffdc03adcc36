import { describe, expect, it } from 'vitest';
import { formatDateTime } from './dateTime';

describe('formatDateTime', () => {
  it('writes yyyy-MM-dd HH:mm:ss in local time', () => {
    const ms = new Date(2024, 0, 2, 3, 4, 5).getTime();
    expect(formatDateTime(ms)).toBe('2024-01-02 03:04:05');
  });

  it('leaves a missing time empty', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
  });
});
