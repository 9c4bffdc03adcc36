import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';

export interface ThrottleLimits {
  /** Failures per account within the window before sign-in is refused. */
  perAccount: number;
  /** Failures per client address within the window. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

/**
 * Counts failed sign-ins per account and per address in the database (shared by every server
 * instance) and says how long a blocked key must wait.
 */
export class LoginThrottle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly limits: ThrottleLimits = DEFAULT_THROTTLE,
  ) {}

  private keys(userName: string, ip: string) {
    return [
      { key: `user:${userName.toLowerCase()}`, limit: this.limits.perAccount },
      { key: `ip:${ip}`, limit: this.limits.perAddress },
    ];
  }

  /** Milliseconds until sign-in is allowed again; 0 when it is allowed now. */
  async blockedFor(userName: string, ip: string): Promise<number> {
    const now = this.clock.now();
    const keys = this.keys(userName, ip);
    const rows = await this.db
      .selectFrom('login_failures')
      .selectAll()
      .where('key', 'in', keys.map((k) => k.key))
      .execute();
    let wait = 0;
    for (const row of rows) {
      const limit = keys.find((k) => k.key === row.key)!.limit;
      const remaining = row.first_at + this.limits.windowMs - now;
      if (row.count >= limit && remaining > 0) wait = Math.max(wait, remaining);
    }
    return wait;
  }

  async recordFailure(userName: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const windowStart = now - this.limits.windowMs;
    for (const { key } of this.keys(userName, ip)) {
      await this.db
        .insertInto('login_failures')
        .values({ key, count: 1, first_at: now })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({
            // A window that has run out starts again at this failure.
            count: eb.case().when('login_failures.first_at', '<', windowStart).then(1).else(eb('login_failures.count', '+', 1)).end(),
            first_at: eb.case().when('login_failures.first_at', '<', windowStart).then(now).else(eb.ref('login_failures.first_at')).end(),
          })),
        )
        .execute();
    }
  }

  /** A successful sign-in clears the account's count (the address keeps its own). */
  async clearAccount(userName: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', '=', `user:${userName.toLowerCase()}`).execute();
  }
}
