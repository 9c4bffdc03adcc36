import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { device } from '@panelfleet/contract';
import type { Dialect } from '../../db/database.js';
import type { CommandsTable, Database } from '../../db/schema.js';

type CommandRecord = Selectable<CommandsTable>;
import { commandId } from './command-id.js';

/** Commands read back per statement when a matching batch is published. */
const READ_BACK = 1000;

/**
 * One command batch to every panel matching a filter ("all N matching", issue 28): its rows are
 * made by the database from the devices that match when the action runs (one INSERT ... SELECT),
 * never from ids held in Node. Every id of the batch is `prefix` + the device id in 12 hex digits:
 * the prefix is the first 24 characters of a fresh command id (UUIDv7 time, counter and random
 * bits), so the ids stay unique, time-ordered and UUID-shaped, and the batch is one key range.
 */
export interface MatchingBatch {
  prefix: string;
  orgId: number;
  userId: number | null;
  order: device.Order;
  /** The order's value, as stored (JSON). */
  value: string;
  now: number;
  expiresAt: number;
}

export function matchingBatch(fields: Omit<MatchingBatch, 'prefix'>): MatchingBatch {
  return { ...fields, prefix: commandId(fields.now).slice(0, 24) };
}

/** The batch's key range: [prefix, prefix + 'g'), hex digits all sorting below 'g'. */
export const batchEnd = (batch: Pick<MatchingBatch, 'prefix'>) => `${batch.prefix}g`;

function idOf(dialect: Dialect, prefix: string) {
  return dialect === 'sqlite'
    ? sql`${prefix} || printf('%012x', d.id)`
    : sql`${prefix} || lpad(to_hex(d.id), 12, '0')`;
}

/**
 * Inserts one queued command per enabled device of `devices d` that `where` keeps; answers how
 * many. Run it inside the caller's transaction with whatever it records beside the commands.
 */
export async function insertMatching(
  db: Kysely<Database>,
  dialect: Dialect,
  batch: MatchingBatch,
  where: RawBuilder<boolean>,
): Promise<number> {
  const result = await sql`INSERT INTO commands
      (id, org_id, device_id, order_code, value, status, detail, attempts, expires_at, created_by, relay_for, created_at, updated_at)
    SELECT ${idOf(dialect, batch.prefix)}, d.org_id, d.id, ${batch.order}, ${batch.value}, 'queued', '', 0,
      ${batch.expiresAt}, ${batch.userId}, NULL, ${batch.now}, ${batch.now}
    FROM devices d WHERE ${where} AND d.state = 1`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * The batch's commands after `afterId`, in id order, as (id, panel, panel key): which to publish.
 * `+c.org_id` keeps the planners on the primary key's range (not the organisation's index, then a sort);
 * each key is looked up for the part's rows alone (a join let PostgreSQL hash all the devices each time).
 */
export async function batchKeys(
  db: Kysely<Database>,
  batch: Pick<MatchingBatch, 'prefix' | 'orgId'>,
  afterId: string,
  limit = READ_BACK,
): Promise<Array<{ id: string; device_id: number; device_key: string }>> {
  const { rows } = await sql<{ id: string; device_id: number; device_key: string }>`
    SELECT c.id, c.device_id, (SELECT d.device_key FROM devices d WHERE d.id = c.device_id) AS device_key
    FROM commands c WHERE c.id > ${afterId} AND c.id < ${batchEnd(batch)} AND +c.org_id = ${batch.orgId}
    ORDER BY c.id LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, device_id: Number(r.device_id) }));
}

/** Whole rows of some of a batch's commands (those whose panels listen), by id. */
export async function batchRowsByIds(
  db: Kysely<Database>,
  orgId: number,
  ids: string[],
): Promise<CommandRecord[]> {
  if (!ids.length) return [];
  return db.selectFrom('commands').selectAll().where('org_id', '=', orgId).where('id', 'in', ids).execute();
}

/** The commands of a matching batch inside the caller's transaction (MatchingCommandService). */
export class MatchingCommandRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  insert(batch: MatchingBatch, where: RawBuilder<boolean>) {
    return insertMatching(this.db, this.dialect, batch, where);
  }
}
