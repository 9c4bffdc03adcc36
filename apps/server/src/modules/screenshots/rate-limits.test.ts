import { describe, expect, it } from 'vitest';
import { ScreenshotLimits } from './rate-limits.js';

describe('screenshot rate limits', () => {
  it('lets one request per panel through within its gap, however many arrive together', async () => {
    const limits = new ScreenshotLimits(2_000, 120, 10_000);
    const answers = await Promise.all(Array.from({ length: 8 }, async () => limits.reserve(1, 7, 1_000)));
    expect(answers.filter((a) => a === 'ok')).toHaveLength(1);
    expect(answers.filter((a) => a === 'panel')).toHaveLength(7);
    expect(limits.reserve(1, 7, 2_999)).toBe('panel');
    expect(limits.reserve(1, 7, 3_000)).toBe('ok');
  });

  it('holds an organisation to its burst per window, other organisations apart', async () => {
    const limits = new ScreenshotLimits(2_000, 5, 10_000);
    const answers = await Promise.all(
      Array.from({ length: 9 }, async (_, panel) => limits.reserve(1, 100 + panel, 1_000)),
    );
    expect(answers.filter((a) => a === 'ok')).toHaveLength(5);
    expect(answers.filter((a) => a === 'org')).toHaveLength(4);
    expect(limits.reserve(2, 900, 1_000)).toBe('ok');
    expect(limits.reserve(1, 200, 10_999)).toBe('org');
    expect(limits.reserve(1, 200, 11_000)).toBe('ok');
  });
});
