import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** One counter of sign-in attempts: how many since `first_at`. */
export interface ThrottleCount {
  count: number;
  first_at: number;
}

/** The SQL of the sign-in throttle: counters in `login_failures`, one row per key. */
export class ThrottleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds one attempt to a key's counter and answers the new count, in one statement: parallel
   * callers each get a different count (SQLite runs one statement at a time; PostgreSQL's
   * INSERT ... ON CONFLICT DO UPDATE locks the row), so no more than the limit pass a check.
   * A counter whose window began before `windowStart` starts again at this attempt.
   */
  reserve(key: string, now: number, windowStart: number): Promise<ThrottleCount> {
    return this.db
      .insertInto('login_failures')
      .values({ key, count: 1, first_at: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          count: eb
            .case()
            .when('login_failures.first_at', '<', windowStart)
            .then(1)
            .else(eb('login_failures.count', '+', 1))
            .end(),
          first_at: eb
            .case()
            .when('login_failures.first_at', '<', windowStart)
            .then(now)
            .else(eb.ref('login_failures.first_at'))
            .end(),
        })),
      )
      .returning(['count', 'first_at'])
      .executeTakeFirstOrThrow();
  }

  /** Gives one attempt back, unless the counter has since started a new window. */
  async release(key: string, firstAt: number): Promise<void> {
    await this.db
      .updateTable('login_failures')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('key', '=', key)
      .where('first_at', '=', firstAt)
      .where('count', '>', 0)
      .execute();
  }

  async remove(key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }

  /** Drops counters whose window ended before `windowStart`. */
  async purgeOlderThan(windowStart: number): Promise<void> {
    await this.db.deleteFrom('login_failures').where('first_at', '<', windowStart).execute();
  }
}
