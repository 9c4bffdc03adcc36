import { z } from 'zod';
import { Refusal } from '../../refusal.js';
import type { Position } from './list-position.js';

/**
 * What the console got with the page it shows: the page number, size and (lowered) search it
 * belongs to and the positions of its first and last rows. Sent back with the next request, it
 * turns "next", "previous" and short jumps into keyset reads. Only positions travel: the server
 * still scopes every read to the caller's organisation, so a forged cursor shows nothing new.
 */
export interface ListCursor {
  page: number;
  size: number;
  search: string;
  first: Position;
  last: Position;
}

const position = z.tuple([z.string().max(255), z.number().int().nonnegative()]);
const wire = z.object({
  p: z.number().int().positive(),
  s: z.number().int().positive(),
  q: z.string().max(255),
  f: position,
  l: position,
});

export function encodeCursor(cursor: ListCursor): string {
  const body = {
    p: cursor.page,
    s: cursor.size,
    q: cursor.search,
    f: [cursor.first.key, cursor.first.id],
    l: [cursor.last.key, cursor.last.id],
  };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

const readJson = (text: string): unknown => {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new Refusal('common.invalidParams', 'invalid', { field: 'cursor' });
  }
};

/**
 * The cursor, or undefined when there is none or it belongs to another page size or search (the
 * console changed them); a cursor that is not one of ours is refused.
 */
export function decodeCursor(text: string | undefined, size: number, search: string): ListCursor | undefined {
  if (!text) return undefined;
  const result = wire.safeParse(readJson(text));
  if (!result.success) throw new Refusal('common.invalidParams', 'invalid', { field: 'cursor' });
  if (result.data.s !== size || result.data.q !== search) return undefined;
  const { p, f, l } = result.data;
  return { page: p, size, search, first: { key: f[0], id: f[1] }, last: { key: l[0], id: l[1] } };
}
