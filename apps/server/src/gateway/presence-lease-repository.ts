import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';

/** Device keys per statement when an instance writes its held panels online again. */
const KEYS_PER_STATEMENT = 500;

/**
 * The presence leases of the instances (migration 049) and the writes that keep `devices.online`
 * true when one dies: all SQL of gateway/presence-leases.ts.
 */
export class PresenceLeaseRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Renews `owner`'s lease; false when it has none (never taken, or another instance found it lapsed). */
  async renew(owner: string, now: number, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('presence_leases')
      .set({ beat_at: now, until })
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async enter(owner: string, now: number, until: number): Promise<void> {
    await this.db
      .insertInto('presence_leases')
      .values({ owner, beat_at: now, until })
      .onConflict((oc) => oc.column('owner').doUpdateSet({ beat_at: now, until }))
      .execute();
  }

  /** Leases that have lapsed at `now`: their instances stopped beating. */
  lapsed(now: number): Promise<Array<{ owner: string }>> {
    return this.db.selectFrom('presence_leases').select('owner').where('until', '<=', now).execute();
  }

  /**
   * Ends a lapsed lease and marks its panels offline, in one transaction, once however many
   * instances try: the one whose delete finds the lease does it. The panels go offline as of the
   * dead instance's last beat (or their own last change, if later): a panel that reconnected to
   * another instance did so after that, so its connection, written late, still wins. Panels
   * already held by another instance (online_by changed) are not touched. Undefined when the
   * lease was no longer lapsed or already ended.
   */
  async sweep(owner: string, now: number): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const ended = await trx
        .deleteFrom('presence_leases')
        .where('owner', '=', owner)
        .where('until', '<=', now)
        .returning('beat_at')
        .executeTakeFirst();
      if (!ended) return undefined;
      return this.markOffline(trx, owner, Number(ended.beat_at));
    });
  }

  /** A stopping instance: panels it still holds go offline as of its last beat, and its lease ends. */
  async release(owner: string, beatAt: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const count = await this.markOffline(trx, owner, beatAt);
      await trx.deleteFrom('presence_leases').where('owner', '=', owner).execute();
      return count;
    });
  }

  /**
   * An instance that was taken for dead (its beats were late) but still holds these panels writes
   * them online again, only where no instance holds them now and nothing later was written: a
   * panel that reconnected elsewhere meanwhile keeps that instance's claim. (One that the
   * instance only thinks it holds goes offline again when its connection is found gone.)
   */
  async reassert(owner: string, deviceKeys: string[], now: number): Promise<number> {
    let count = 0;
    for (let i = 0; i < deviceKeys.length; i += KEYS_PER_STATEMENT) {
      const keys = deviceKeys.slice(i, i + KEYS_PER_STATEMENT);
      const unclaimed = sql<boolean>`device_key IN (${sql.join(keys)}) AND online = 0 AND online_by IS NULL
        AND COALESCE(online_at, 0) <= ${now}`;
      count += await this.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO panel_history (org_id, device_id, grp, at, n1, n2, n3, txt)
          SELECT org_id, id, 'presence', ${now}, 1, NULL, NULL, 'connected' FROM devices WHERE ${unclaimed}`.execute(
          trx,
        );
        const result = await sql`UPDATE devices SET online = 1, online_at = ${now}, online_by = ${owner}
          WHERE ${unclaimed}`.execute(trx);
        return Number(result.numAffectedRows ?? 0);
      });
    }
    return count;
  }

  /** The panels `owner` holds, offline as of `beatAt` (a history row each). */
  private async markOffline(trx: Kysely<Database>, owner: string, beatAt: number): Promise<number> {
    // PostgreSQL: rows locked in id order first, as the state writer locks its batches.
    if (this.dialect === 'postgres')
      await sql`SELECT id FROM devices WHERE online_by = ${owner} ORDER BY id FOR UPDATE`.execute(trx);
    const at = sql`CASE WHEN COALESCE(online_at, 0) > ${beatAt} THEN online_at ELSE ${beatAt} END`;
    await sql`INSERT INTO panel_history (org_id, device_id, grp, at, n1, n2, n3, txt)
      SELECT org_id, id, 'presence', ${at}, 0, NULL, NULL, 'instanceLost' FROM devices WHERE online_by = ${owner}`.execute(
      trx,
    );
    const result = await sql`UPDATE devices SET online = 0, online_at = ${at}, online_by = NULL
      WHERE online_by = ${owner}`.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  }
}
