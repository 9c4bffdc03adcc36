/**
 * The wait before attempt `attempt` (1: the first retry) of something retried with jittered
 * exponential back-off: random between half and all of min(firstMs × 2^(attempt-1), maxMs), so
 * that panels refused together do not come back together. Used for enrollment answered 503 or
 * not answered (protocol 2) and for re-sending what no receipt named (protocol 5.9).
 */
export function backoffDelay(attempt: number, firstMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Enrollment answered 503 (or no answer at all) is tried again after these waits (protocol 2). */
export const ENROLL_RETRY_FIRST_MS = 5_000;
export const ENROLL_RETRY_MAX_MS = 5 * 60_000;
