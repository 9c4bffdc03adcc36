import { describe, expect, it } from 'vitest';
import { expiryOf } from './expiry';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 23, 12);

describe('certificate expiry', () => {
  it('warns within 30 days of the end and says expired at and after it', () => {
    expect(expiryOf(now + 400 * DAY, now)).toEqual({ state: 'valid', days: 400 });
    expect(expiryOf(now + 30 * DAY, now)).toEqual({ state: 'valid', days: 30 });
    expect(expiryOf(now + 30 * DAY - 1, now)).toEqual({ state: 'soon', days: 29 });
    expect(expiryOf(now + DAY / 2, now)).toEqual({ state: 'soon', days: 0 });
    expect(expiryOf(now, now)).toEqual({ state: 'expired', days: 0 });
    expect(expiryOf(now - DAY, now)).toEqual({ state: 'expired', days: 0 });
  });
});
