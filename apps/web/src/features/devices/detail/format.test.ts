import { describe, expect, it } from 'vitest';
import { clockSkewOf, downloadProgress, formatUtcOffset, storageOf, toGb, toKb } from './format';

describe('storage', () => {
  it('shows free memory in GB with two decimals and its share', () => {
    const storage = storageOf(4_294_967_296, 1_073_741_824)!;
    expect(toGb(storage.freeBytes)).toBe('3.00');
    expect(toGb(storage.totalBytes)).toBe('4.00');
    expect(storage.freePercent).toBe(75);
    expect(storage.alarm).toBe(false);
  });

  it('turns orange at 80% free or more', () => {
    expect(storageOf(1000, 200)!.alarm).toBe(true);
    expect(storageOf(1000, 201)!.alarm).toBe(false);
    expect(storageOf(1000, 0)!.alarm).toBe(true);
  });

  it('has nothing to show before the panel reported a total', () => {
    expect(storageOf(null, 10)).toBeUndefined();
    expect(storageOf(0, 0)).toBeUndefined();
  });
});

describe('download progress', () => {
  it('shows kb of total while a download runs', () => {
    expect(downloadProgress('apk', 512_000, 2_048_000)).toEqual({
      currentKb: 500,
      totalKb: 2000,
      percent: 25,
    });
    expect(toKb(1536)).toBe(2);
  });

  it('shows no progress when the total is 0, the download is complete, or an OTA has not started', () => {
    expect(downloadProgress('apk', 0, 0)).toBeUndefined();
    expect(downloadProgress('apk', null, null)).toBeUndefined();
    expect(downloadProgress('apk', 2048, 2048)).toBeUndefined();
    expect(downloadProgress('ota', 0, 4096)).toBeUndefined();
    expect(downloadProgress('apk', 0, 4096)).toEqual({ currentKb: 0, totalKb: 4, percent: 0 });
    expect(downloadProgress('ota', 1024, 4096)).toEqual({ currentKb: 1, totalKb: 4, percent: 25 });
  });
});

describe('clock skew', () => {
  it('warns past a minute either way, in the two largest units', () => {
    expect(clockSkewOf(null)).toBeUndefined();
    expect(clockSkewOf(60_000)).toBeUndefined();
    expect(clockSkewOf(-60_000)).toBeUndefined();
    expect(clockSkewOf(-612_000)).toEqual({
      ahead: false,
      parts: [
        { unit: 'min', n: 10 },
        { unit: 's', n: 12 },
      ],
    });
    expect(clockSkewOf(61_000)).toEqual({
      ahead: true,
      parts: [
        { unit: 'min', n: 1 },
        { unit: 's', n: 1 },
      ],
    });
    // Three days and four hours and some: the minutes no longer matter.
    expect(clockSkewOf((3 * 86_400 + 4 * 3_600 + 5 * 60) * 1000)).toEqual({
      ahead: true,
      parts: [
        { unit: 'd', n: 3 },
        { unit: 'h', n: 4 },
      ],
    });
    expect(clockSkewOf(-2 * 3_600_000)?.parts).toEqual([{ unit: 'h', n: 2 }]);
  });
});

describe('time zone', () => {
  it('shows the reported UTC offset as hours and minutes', () => {
    expect(formatUtcOffset(480)).toBe('UTC+08:00');
    expect(formatUtcOffset(0)).toBe('UTC+00:00');
    expect(formatUtcOffset(-150)).toBe('UTC-02:30');
    expect(formatUtcOffset(345)).toBe('UTC+05:45');
    expect(formatUtcOffset(-720)).toBe('UTC-12:00');
  });
});
