/** A unique index refused the row (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** A foreign key refused the change: the row is still referenced (SQLite or PostgreSQL). */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** PostgreSQL SQLSTATEs that mean the database is away or refusing work for now, not that the request is wrong. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNAVAILABLE_SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);
/** What the pg driver says (without a code) when a connection is lost, refused or too slow. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
];

/**
 * The database could not do the work now (stopped, restarting, frozen past the timeouts, out of
 * connections): the request may succeed later, so it is answered 503 and device reports wait.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
    if (UNAVAILABLE_NODE_CODES.has(code) || UNAVAILABLE_SQLITE_CODES.has(code)) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

/**
 * PostgreSQL aborted the transaction because of another one (deadlock_detected, or a
 * serialization failure): nothing of it was written, and the same work succeeds when tried again.
 * Instances that write the same device rows in batches meet this under load.
 */
export function isTransactionConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '40P01' || code === '40001';
}

/** A background write that failed for a reason that passes: the database away, or a conflict. */
export function isWorthRetrying(error: unknown): boolean {
  return isDatabaseUnavailable(error) || isTransactionConflict(error);
}
