import { sql } from 'kysely';
import type { Db } from './database.js';

const POLL_MS = 100;
const DEFAULT_WAIT_MS = 120_000;

/**
 * Runs first-start work (migrations, the platform organisation, the deployment's secrets) while
 * holding a PostgreSQL advisory lock, so instances started together on one database take turns
 * instead of racing: the second finds the work done. The lock is per schema (tests give each
 * server its own) and is taken by polling `pg_try_advisory_lock`, because a blocking wait would
 * be cancelled by the statement timeout. SQLite serves one process's instances from one file and
 * serialises writers itself; there the work just runs.
 */
export async function withStartUpLock<T>(
  db: Db,
  work: () => Promise<T>,
  options: { waitMs?: number; onWait?: () => void } = {},
): Promise<T> {
  if (db.dialect !== 'postgres') return work();
  const key = `panelfleet start-up ${db.schema ?? 'public'}`;
  return db.kysely.connection().execute(async (connection) => {
    const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
    let told = false;
    for (;;) {
      const { rows } = await sql<{ taken: boolean }>`
        SELECT pg_try_advisory_lock(hashtext(${key})) AS taken`.execute(connection);
      if (rows[0]?.taken) break;
      if (!told) options.onWait?.();
      told = true;
      if (Date.now() > deadline)
        throw new Error(
          `another instance held the start-up lock for more than ${options.waitMs ?? DEFAULT_WAIT_MS} ms`,
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}
