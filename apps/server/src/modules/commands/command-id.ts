import crypto from 'node:crypto';

const COUNTER_LIMIT = 0x1000;
let lastMs = -1;
let counter = 0;

/**
 * A command id: a UUIDv7 (RFC 9562) of `nowMs`, with a 12-bit counter within the millisecond and
 * the random tail of a v4 UUID. Ids made later sort after earlier ones, even within one
 * millisecond (a counter overflow moves on to the next millisecond). Why: a label command inserts
 * thousands of rows at once, and time-ordered keys append to the primary-key index where random
 * ones land all over it (about a third of the insert's time in SQLite).
 */
export function commandId(nowMs: number): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    counter = 0;
  } else if (++counter === COUNTER_LIMIT) {
    lastMs++;
    counter = 0;
  }
  const time = lastMs.toString(16).padStart(12, '0');
  const random = crypto.randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${counter.toString(16).padStart(3, '0')}${random.slice(18)}`;
}
