import { deviceDetail } from '@panelfleet/contract';

/** Display rules of the detail modal's tabs (spec 2 sections 2 and 9). */

const GB = 1024 ** 3;

/** Bytes as GB with two decimals. */
export const toGb = (bytes: number) => (bytes / GB).toFixed(2);

/** Bytes as whole kb. */
export const toKb = (bytes: number) => Math.round(bytes / 1024);

/** At or above this share of free memory the ring turns orange. */
export const FREE_MEMORY_ALARM_PERCENT = 80;

export interface Storage {
  freeBytes: number;
  totalBytes: number;
  freePercent: number;
  alarm: boolean;
}

/** Free memory from what the panel reports; undefined until it reported a total. */
export function storageOf(ramTotal: number | null, ramUsed: number | null): Storage | undefined {
  if (!ramTotal || ramTotal <= 0) return undefined;
  const freeBytes = Math.max(0, ramTotal - (ramUsed ?? 0));
  const freePercent = Math.round((freeBytes / ramTotal) * 1000) / 10;
  return { freeBytes, totalBytes: ramTotal, freePercent, alarm: freePercent >= FREE_MEMORY_ALARM_PERCENT };
}

export type DownloadKind = 'apk' | 'ota';

/**
 * Progress of a download, or undefined for "no progress": nothing to download (total 0),
 * finished (current equals total), or for OTA not started (current 0).
 */
export function downloadProgress(kind: DownloadKind, current: number | null, total: number | null) {
  const done = current ?? 0;
  const all = total ?? 0;
  if (all === 0 || done === all || (kind === 'ota' && done === 0)) return undefined;
  return {
    currentKb: toKb(done),
    totalKb: toKb(all),
    percent: Math.min(100, Math.floor((done / all) * 100)),
  };
}

export type ClockUnit = 'd' | 'h' | 'min' | 's';

/**
 * How far a panel's clock is off when it is off by more than CLOCK_SKEW_WARNING_MS, in its two
 * largest units (10 min 12 s, 3 d 4 h); undefined within the limit or before the panel told.
 */
export function clockSkewOf(offsetMs: number | null) {
  if (offsetMs === null || Math.abs(offsetMs) <= deviceDetail.CLOCK_SKEW_WARNING_MS) return undefined;
  let seconds = Math.round(Math.abs(offsetMs) / 1000);
  const parts: Array<{ unit: ClockUnit; n: number }> = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n > 0 || parts.length) parts.push({ unit, n });
  }
  return { ahead: offsetMs > 0, parts: parts.slice(0, 2).filter((p) => p.n > 0) };
}

/** A panel's UTC offset (minutes east) as a time zone: 480 is UTC+08:00, -150 is UTC-02:30. */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const whole = Math.abs(minutes);
  const two = (n: number) => String(n).padStart(2, '0');
  return `UTC${sign}${two(Math.floor(whole / 60))}:${two(whole % 60)}`;
}
