import { describe, expect, it } from 'vitest';
import { downloadProgress, storageOf, toGb, toKb } from './format';

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
