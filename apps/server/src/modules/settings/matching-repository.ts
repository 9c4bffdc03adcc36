import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { batchEnd, insertMatching, type MatchingBatch } from '../commands/matching-repository.js';
import { OperationLog, type OperationEntry } from '../operation-log/repository.js';
import type { NewPush } from './repository.js';

/** What a push to "all matching" records beside its commands. */
export interface MatchingPushRecord {
  push: NewPush;
  batch: MatchingBatch;
  settingId: number | null;
  what: string;
  /** The matching devices, as `d` (MatchingDevices.condition). */
  where: RawBuilder<boolean>;
  /** The operation-log row, given how many panels matched. */
  log: (count: number) => OperationEntry;
}

/**
 * The SQL of a push to every panel matching the device list's filter: the push, its commands and
 * its per-panel rows are made by the database in one transaction (INSERT ... SELECT), scoped by
 * the organisation the filter names; nothing is recorded when nothing matches.
 */
export class SettingsMatchingRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly now: () => number,
  ) {}

  /** The push's id and its number of panels; `undefined` (nothing recorded) when none matched. */
  async recordPush(record: MatchingPushRecord): Promise<{ pushId: number; count: number } | undefined> {
    const { push, batch } = record;
    return this.db
      .transaction()
      .execute(async (trx) => {
        const { id } = await trx
          .insertInto('setting_pushes')
          .values({ ...push, target_count: 0 })
          .returning('id')
          .executeTakeFirstOrThrow();
        const count = await insertMatching(trx, this.dialect, batch, record.where);
        // Nothing matched: the push is rolled back (the caller refuses), no empty push is kept.
        if (!count) throw new NothingMatched();
        await sql`INSERT INTO setting_push_targets (push_id, command_id, org_id, device_id, setting_id, what, offline_at_push)
        SELECT ${id}, c.id, c.org_id, c.device_id, ${record.settingId}, ${record.what}, 1 FROM commands c
        WHERE c.id > ${batch.prefix} AND c.id < ${batchEnd(batch)} AND +c.org_id = ${batch.orgId}`.execute(
          trx,
        );
        await trx
          .updateTable('setting_pushes')
          .set({ target_count: count })
          .where('id', '=', id)
          .where('org_id', '=', push.org_id)
          .execute();
        await new OperationLog(trx, this.now).record(record.log(count));
        return { pushId: id, count };
      })
      .catch((err: unknown) => {
        if (err instanceof NothingMatched) return undefined;
        throw err;
      });
  }

  /** The panels a push was published to at once were listening: not "offline" in its results. */
  async markListening(orgId: number, pushId: number, deviceIds: number[]) {
    for (let i = 0; i < deviceIds.length; i += 500)
      await this.db
        .updateTable('setting_push_targets')
        .set({ offline_at_push: 0 })
        .where('org_id', '=', orgId)
        .where('push_id', '=', pushId)
        .where('device_id', 'in', deviceIds.slice(i, i + 500))
        .execute();
  }
}

class NothingMatched extends Error {}
