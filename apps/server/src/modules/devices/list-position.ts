/**
 * A position in the device list's order: (name_key, id), name_key compared byte-wise as UTF-8
 * (SQLite BINARY, PostgreSQL COLLATE "C"), so JavaScript and both databases agree on it.
 */
export interface Position {
  key: string;
  id: number;
}

/** Before every device: ids start at 1, so ('', 0) precedes even an empty name. */
export const START: Position = { key: '', id: 0 };

// UTF-16 units in code point order (which is UTF-8 byte order): surrogates sort after U+E000-U+FFFF.
const inCodePointOrder = (unit: number) =>
  unit < 0xd800 ? unit : unit <= 0xdfff ? unit + 0x2000 : unit - 0x800;

/** Compares keys like the databases do (UTF-8 bytes), without encoding them. */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return inCodePointOrder(x) - inCodePointOrder(y);
  }
  return a.length - b.length;
}

/** Compares positions like the databases do: the key, then the id. */
export function comparePositions(a: Position, b: Position): number {
  return a.key === b.key ? a.id - b.id : compareKeys(a.key, b.key);
}

/** The range of names that start with `prefix` (already lowered by the database): [lo, hi). */
export function prefixRange(prefix: string): { lo: Position; hi: Position } {
  // U+10FFFF is the largest code point, so prefix + it sorts after every name with that prefix.
  return { lo: { key: prefix, id: 0 }, hi: { key: `${prefix}\u{10FFFF}`, id: 0 } };
}
