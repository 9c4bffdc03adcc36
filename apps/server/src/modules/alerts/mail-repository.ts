import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { AlertMailOutboxTable } from '../../db/schema-alerts.js';
import { chunked } from './candidates.js';

export type OutboxRow = Selectable<AlertMailOutboxTable>;

/**
 * Alert mail waiting to be sent: one row per alert change and recipient. A sender claims rows
 * for a while (claimed_by, claimed_until) and marks them sent after the mail went; rows of a
 * sender that stopped are claimed again once their claim lapses, so no change is lost.
 */
/** The PostgreSQL advisory lock that makes claims one at a time. */
const CLAIM_LOCK = 26_039;

export class AlertMailRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async enqueue(rows: Insertable<AlertMailOutboxTable>[]): Promise<void> {
    for (const part of chunked(rows, 500))
      await this.db.insertInto('alert_mail_outbox').values(part).execute();
  }

  /**
   * Claims the rows to send now: every grouped row, and the digest rows of recipients whose
   * oldest waiting digest row is older than `digestBefore`. Claims run one at a time (SQLite: one
   * statement, which holds the database's write lock; PostgreSQL: an advisory lock for the
   * transaction), so a second claimer sees the first one's claim and never takes half of a
   * recipient's rows.
   */
  async claim(owner: string, now: number, until: number, digestBefore: number): Promise<OutboxRow[]> {
    if (this.dialect !== 'postgres') return this.claimIn(this.db, owner, now, until, digestBefore);
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
      return this.claimIn(trx, owner, now, until, digestBefore);
    });
  }

  private async claimIn(
    trx: Kysely<Database>,
    owner: string,
    now: number,
    until: number,
    digestBefore: number,
  ) {
    const dueDigests = trx
      .selectFrom('alert_mail_outbox')
      .select('recipient')
      .where('digest', '=', 1)
      .where('sent_at', 'is', null)
      .groupBy('recipient')
      .having((eb) => eb.fn.min('at'), '<=', digestBefore);
    return trx
      .updateTable('alert_mail_outbox')
      .set({ claimed_by: owner, claimed_until: until })
      .where('sent_at', 'is', null)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .where((eb) => eb.or([eb('digest', '=', 0), eb('recipient', 'in', dueDigests)]))
      .returningAll()
      .execute();
  }

  /** Marks claimed rows sent; only those this owner still holds. */
  async sent(owner: string, ids: number[], now: number): Promise<void> {
    for (const part of chunked(ids, 500))
      await this.db
        .updateTable('alert_mail_outbox')
        .set({ sent_at: now })
        .where('id', 'in', part)
        .where('claimed_by', '=', owner)
        .execute();
  }

  /** Gives claimed rows back (the mail could not be sent): the next run tries again. */
  async release(owner: string, ids: number[]): Promise<void> {
    for (const part of chunked(ids, 500))
      await this.db
        .updateTable('alert_mail_outbox')
        .set({ claimed_by: null, claimed_until: null })
        .where('id', 'in', part)
        .where('claimed_by', '=', owner)
        .execute();
  }

  /** Sent rows older than `before` are forgotten. */
  async prune(before: number): Promise<void> {
    await this.db.deleteFrom('alert_mail_outbox').where('sent_at', '<', before).execute();
  }
}
