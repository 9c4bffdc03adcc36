import { describe, expect, it } from 'vitest';
import {
  diskGb,
  hasData,
  mapScaleMax,
  memoryGb,
  percent,
  slicesOf,
  slotValues,
  topWithOther,
} from './format';

describe('dashboard formatting', () => {
  it('divides disk and memory by 1024 twice (spec 3 section 9)', () => {
    expect(diskGb(2 * 1024 * 1024)).toBe(2);
    expect(memoryGb(3 * 1024 * 1024)).toBe(3);
    expect(memoryGb(1000 * 1000, 1000)).toBe(1);
  });

  it('computes percentages and leaves 0 for an empty whole', () => {
    expect(percent(1, 3)).toBe(33.3);
    expect(percent(5, 0)).toBe(0);
  });

  it('places history points in their slots, leaving unknown slots empty instead of 0', () => {
    const points = [
      { time: 100, v: 7 },
      { time: 300, v: 9 as number | null },
      { time: 400, v: null },
      { time: 900, v: 1 },
    ];
    expect(slotValues(points, 100, 100, 4, (p) => p.v)).toEqual([7, null, 9, null]);
  });

  it('says when a series or a pie has nothing to show', () => {
    expect(hasData([null, 0, null])).toBe(false);
    expect(hasData([null, 0, 3])).toBe(true);
    expect(
      slicesOf([
        { name: 'Online', value: 3 },
        { name: 'Offline', value: 0 },
      ]),
    ).toEqual([{ name: 'Online', value: 3 }]);
  });

  it('scales a map to its largest region', () => {
    expect(mapScaleMax([{ value: 4 }, { value: 11 }, { value: 2 }])).toBe(11);
    expect(mapScaleMax([])).toBe(1);
  });

  it('keeps the first n and sums the rest', () => {
    const items = [
      { name: 'a', value: 5 },
      { name: 'b', value: 3 },
      { name: 'c', value: 2 },
      { name: 'd', value: 1 },
    ];
    expect(topWithOther(items, 2, 'other')).toEqual([
      { name: 'a', value: 5 },
      { name: 'b', value: 3 },
      { name: 'other', value: 3 },
    ]);
    expect(topWithOther(items.slice(0, 2), 2, 'other')).toHaveLength(2);
  });
});
