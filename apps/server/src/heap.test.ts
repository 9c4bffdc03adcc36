import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('HEAP_GROWING_PERCENT', () => {
  it('defaults to 50 percent, takes 0 for V8 own growth, and refuses what is not a percentage', () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(50);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: 'lots' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-5' })).toThrow(/HEAP_GROWING_PERCENT/);
  });
});
