import { sql } from 'kysely';
import type { Db } from './database.js';
import { isDatabaseUnavailable } from './errors.js';

interface WaitLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Holds start-up until the database answers: a server started while PostgreSQL is down (or
 * restarting) waits for it instead of exiting. Any other error (wrong password, unknown
 * database) is a configuration mistake and ends start-up at once.
 */
export async function waitForDatabase(db: Db, log: WaitLog, retryMs = 2000): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`.execute(db.kysely);
      if (attempt > 1) log.info({ attempt }, 'database answers: starting');
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      log.warn({ err, attempt, retryMs }, 'database unavailable: waiting for it before starting');
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
}
