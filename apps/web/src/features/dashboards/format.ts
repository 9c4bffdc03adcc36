import { dashboard } from '@panelfleet/contract';

/** Spec 3 section 9: disk is the raw value (KB) divided by 1024 twice: GB. */
export const diskGb = (kb: number) => kb / 1024 / 1024;
/** Memory: the value divided by the kilobyte factor twice. */
export const memoryGb = (kb: number, kilobyte: number = dashboard.DASHBOARD.kilobyte) =>
  kb / kilobyte / kilobyte;

export const percent = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;

/** Labels of `count` slots from `start`, `step` apart: hours as HH:00, days as MM-DD. */
export function slotLabels(start: number, step: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(start + i * step);
    const two = (n: number) => String(n).padStart(2, '0');
    return step < 86_400_000 ? `${two(d.getHours())}:00` : `${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  });
}

/**
 * Values of the history points placed in their slots: null where nothing is known (no point, or
 * a count that was not sampled then), which a line chart leaves as a gap instead of drawing 0.
 */
export function slotValues<T extends { time: number }>(
  points: T[],
  start: number,
  step: number,
  count: number,
  value: (p: T) => number | null,
): Array<number | null> {
  const out = new Array<number | null>(count).fill(null);
  for (const p of points) {
    const i = Math.floor((p.time - start) / step);
    if (i >= 0 && i < count) out[i] = value(p);
  }
  return out;
}

/** Whether a series shows anything: some known value above zero. */
export const hasData = (values: ReadonlyArray<number | null>) => values.some((v) => v !== null && v > 0);

/** The slices of a pie that are there: an empty "Offline" slice is left out, not drawn at 0 %. */
export const slicesOf = <T extends { value: number }>(items: T[]) => items.filter((item) => item.value > 0);

/**
 * The top of a map's colour scale: the largest count of a region, so that 30 panels in a few
 * provinces span the whole scale instead of a pale corner of 0-10,000.
 */
export const mapScaleMax = (items: ReadonlyArray<{ value: number }>) =>
  Math.max(1, ...items.map((item) => item.value));

/** The first `n` entries and the rest summed as one "other" entry. */
export function topWithOther(items: dashboard.NameValue[], n: number, other: string): dashboard.NameValue[] {
  if (items.length <= n) return items;
  const rest = items.slice(n).reduce((s, i) => s + i.value, 0);
  return [...items.slice(0, n), { name: other, value: rest }];
}
