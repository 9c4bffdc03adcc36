import { describe, expect, it, vi } from 'vitest';
import { failNotices } from './failNotices';

describe('failNotices', () => {
  it('keeps notices in order until the notice area takes them, and tells its listeners', () => {
    const listener = vi.fn();
    const unsubscribe = failNotices.subscribe(listener);
    failNotices.push('first');
    failNotices.push('second');
    expect(failNotices.count()).toBe(2);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(failNotices.take()).toEqual(['first', 'second']);
    expect(failNotices.count()).toBe(0);
    expect(listener).toHaveBeenCalledTimes(3);
    // Nothing waiting: nothing to take and nobody to tell.
    expect(failNotices.take()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    failNotices.push('third');
    expect(listener).toHaveBeenCalledTimes(3);
    expect(failNotices.take()).toEqual(['third']);
  });
});
