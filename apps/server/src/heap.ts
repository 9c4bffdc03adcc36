import v8 from 'node:v8';

/**
 * How much V8 lets the old generation grow past what the last full collection kept, in percent.
 * V8's own choice (0 here) is up to 4x on a fast machine: a long export, whose rows and workbook
 * XML are all short-lived, then leaves 60-90 MiB of garbage resident before the next full
 * collection (docs/benchmarks.md, reports). At 50% the same export grows RSS by about 47 MiB. At
 * 20% it stayed within a few MiB, but V8 counts the buffers of received bytes (a socket's reads)
 * against the same headroom: a 200 MB upload then ran a full collection every ~15 MB and cost 3-5x
 * its CPU (docs/benchmarks.md, APK upload). Set for the whole process, once, at start.
 */
export function tuneHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
