const KB = 1024;
const MB = 1024 * 1024;

/** File sizes of the OTA lists (spec 3 section 9): above 1 MB in M with 1 decimal, above 1 KB in KB, else B. */
export function formatFileSize(bytes: number): string {
  if (bytes > MB) return `${(bytes / MB).toFixed(1)} M`;
  if (bytes > KB) return `${(bytes / KB).toFixed(1)} KB`;
  return `${bytes} B`;
}

/** Bytes as MB (bytes / 1048576) with `digits` decimals, as spec 3 section 9 shows them (progress dialogs: 1). */
export const megabytes = (bytes: number, digits = 1): string => (bytes / MB).toFixed(digits);
