import { describe, expect, it, vi } from 'vitest';
import { sessionExpiry } from './sessionExpiry';

describe('sessionExpiry', () => {
  it('stays one modal when several requests expire together', () => {
    const listener = vi.fn();
    const unsubscribe = sessionExpiry.subscribe(listener);
    sessionExpiry.open();
    sessionExpiry.open();
    sessionExpiry.open();
    expect(sessionExpiry.isOpen()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    sessionExpiry.close();
    expect(sessionExpiry.isOpen()).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});
