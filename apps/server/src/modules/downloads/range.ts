/** One byte range of a file, both ends included (RFC 9110 section 14). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a Range header for a file of `size` bytes. Only single `bytes=` ranges are served
 * partially (panels resume with `bytes=N-`); anything else that is not a byte range is ignored
 * (the whole file, 200), as the RFC allows. 'unsatisfiable' becomes a 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'whole' | 'unsatisfiable' {
  if (header === undefined) return 'whole';
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return 'whole';
  const [, first, last] = match;
  if (first === '' && last === '') return 'whole';
  if (first === '') {
    // A suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
