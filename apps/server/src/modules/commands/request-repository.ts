import type { Insertable, Kysely } from 'kysely';
import type { CommandRequestsTable, Database } from '../../db/schema.js';

/** How long a label command's idempotency key is kept: a retry comes within seconds, a day is ample. */
export const REQUEST_KEY_TTL_MS = 24 * 60 * 60_000;

export type RequestClaim = { claimed: true } | { claimed: false; fingerprint: string; commandCount: number };

/** Label command requests by idempotency key: one row per company and key, kept a day. */
export class CommandRequestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims the key for this request, or answers the request that holds it. Runs inside the
   * transaction that records the request's commands: on PostgreSQL a second claim of a key waits
   * (ON CONFLICT) until the first transaction ends, then finds its row, or claims the key if that
   * transaction rolled back; on SQLite the transaction holds the only connection. A key older
   * than `expiredBefore` is free again.
   */
  async claim(row: Insertable<CommandRequestsTable>, expiredBefore: number): Promise<RequestClaim> {
    await this.db
      .deleteFrom('command_requests')
      .where('org_id', '=', row.org_id)
      .where('idempotency_key', '=', row.idempotency_key)
      .where('created_at', '<', expiredBefore)
      .execute();
    const inserted = await this.db
      .insertInto('command_requests')
      .values(row)
      .onConflict((oc) => oc.columns(['org_id', 'idempotency_key']).doNothing())
      .returning('org_id')
      .executeTakeFirst();
    if (inserted) return { claimed: true };
    const held = await this.db
      .selectFrom('command_requests')
      .select(['fingerprint', 'command_count'])
      .where('org_id', '=', row.org_id)
      .where('idempotency_key', '=', row.idempotency_key)
      .executeTakeFirstOrThrow();
    return { claimed: false, fingerprint: held.fingerprint, commandCount: held.command_count };
  }

  /** The number of commands the request that claimed the key made (known once they are inserted). */
  async setCount(orgId: number, idempotencyKey: string, count: number) {
    await this.db
      .updateTable('command_requests')
      .set({ command_count: count })
      .where('org_id', '=', orgId)
      .where('idempotency_key', '=', idempotencyKey)
      .execute();
  }

  /** Housekeeping across companies (a timer, never a request): keys older than `time` go. */
  async deleteOlderThan(time: number): Promise<void> {
    await this.db.deleteFrom('command_requests').where('created_at', '<', time).execute();
  }
}
