import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { jsonRows, type JsonRowColumns } from '../../db/json-rows.js';
import type { CommandsTable, CommandStatus, Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';
import { batchKeys, batchRowsByIds, type MatchingBatch } from './matching-repository.js';

export type CommandRecord = Selectable<CommandsTable>;
export const OPEN_STATUSES: CommandStatus[] = ['queued', 'sent', 'delivered'];
const CHUNK = 500;

/** What the command service needs to know about a command an acknowledgement changed. */
export type SettledCommand = Pick<
  CommandRecord,
  'id' | 'org_id' | 'device_id' | 'order_code' | 'status' | 'detail' | 'relay_for'
>;

export interface AckUpdate {
  id: string;
  deviceId: number;
  status: 'delivered' | 'succeeded' | 'failed';
  detail: string;
}

/**
 * The `updated_at` a claim writes: now, but never a row's `created_at`, which (with no attempt)
 * marks a row that no instance has claimed yet (a row can be claimed within its first millisecond).
 */
function claimedAt(now: number) {
  return sql`CASE WHEN created_at >= ${now} THEN created_at + 1 ELSE ${now} END`;
}

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const COMMAND_COLUMNS = {
  id: 'text',
  org_id: 'int4',
  device_id: 'int4',
  order_code: 'text',
  value: 'text',
  status: 'text',
  detail: 'text',
  attempts: 'int4',
  expires_at: 'int8',
  created_by: 'int4',
  relay_for: 'text',
  created_at: 'int8',
  updated_at: 'int8',
} satisfies Record<keyof CommandRecord, JsonRowColumns[string]>;
const COMMAND_COLUMN_NAMES = Object.keys(COMMAND_COLUMNS) as Array<keyof CommandRecord>;
const ACK_COLUMNS: JsonRowColumns = { id: 'text', device_id: 'int4', status: 'text', detail: 'text' };

/**
 * The UPDATE that settles acknowledgements (no two for one command id). The status condition is
 * `+status` on SQLite: without the unary plus its planner reads the commands through the status
 * index and scans the acknowledgements for each (35x slower with 10,000 open commands) instead
 * of looking each acknowledged id up in the primary key.
 */
export function settleStatement(dialect: Dialect, acks: AckUpdate[], now: number) {
  const cells = acks.map((a) => [a.id, a.deviceId, a.status, a.detail]);
  const status = dialect === 'sqlite' ? sql`+commands.status` : sql`commands.status`;
  return sql<SettledCommand>`UPDATE commands SET status = v.status, detail = v.detail, updated_at = ${now}
    FROM ${jsonRows(dialect, ACK_COLUMNS, cells)}
    WHERE commands.id = v.id AND commands.device_id = v.device_id
      AND ${status} IN (${sql.join(OPEN_STATUSES.map((s) => sql.lit(s)))}) AND NOT (v.status = 'delivered' AND commands.status = 'delivered')
    RETURNING commands.id, commands.org_id, commands.device_id, commands.order_code, commands.status, commands.detail, commands.relay_for`;
}

/**
 * Command rows; the database, never the broker, owns a command's state. The console's reads take
 * the caller's organisation, and inserted rows carry it. Delivery's methods (…ForPanels: publish,
 * acknowledge, retry, expire) work across organisations on ids the server made itself, and only
 * the delivery service calls them.
 */
export class CommandRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * All rows in one statement, so all or none are recorded, and inside a transaction (the
   * caller's when given one): if the database freezes with the statement in flight, the request
   * answers 503 and its connection is closed before COMMIT, so the rows are rolled back instead of
   * being stored (and sent) later.
   */
  async insertMany(rows: CommandRecord[], within: Kysely<Database> = this.db) {
    if (!rows.length) return;
    const cells = rows.map((row) => COMMAND_COLUMN_NAMES.map((name) => row[name]));
    const insert = (db: Kysely<Database>) =>
      sql`INSERT INTO commands (${sql.join(COMMAND_COLUMN_NAMES.map((name) => sql.ref(name)))})
      SELECT ${sql.join(COMMAND_COLUMN_NAMES.map((name) => sql.ref(`v.${name}`)))} FROM ${jsonRows(this.dialect, COMMAND_COLUMNS, cells)}`.execute(
        db,
      );
    if (within.isTransaction) await insert(within);
    else await within.transaction().execute(insert);
  }

  /** A matching batch's commands after `afterId` as (id, panel, key) (CommandService.releaseBatch). */
  batchKeys(batch: Pick<MatchingBatch, 'prefix' | 'orgId'>, afterId: string) {
    return batchKeys(this.db, batch, afterId);
  }

  /** Whole rows of a matching batch's commands, by id. */
  batchRowsByIds(orgId: number, ids: string[]) {
    return batchRowsByIds(this.db, orgId, ids);
  }

  async markSentForPanels(ids: string[], now: number) {
    for (const part of chunks(ids)) {
      await this.db
        .updateTable('commands')
        .set((eb) => ({ status: 'sent', attempts: eb('attempts', '+', 1), updated_at: now }))
        .where('id', 'in', part)
        .where('status', 'in', ['queued', 'sent'])
        .execute();
    }
  }

  async setStatusForPanels(ids: string[], status: CommandStatus, detail: string, now: number) {
    for (const part of chunks(ids)) {
      await this.db
        .updateTable('commands')
        .set({ status, detail, updated_at: now })
        .where('id', 'in', part)
        .where('status', 'in', OPEN_STATUSES)
        .execute();
    }
  }

  /**
   * Claims the unacknowledged, unexpired commands of panels that have just become ready, oldest
   * first: every server instance reads every panel's presence, so each would send them all. A
   * claim moves `updated_at` forward in the same statement, so of instances that ask at once one
   * gets each row: a row never published nor claimed (no attempt, `updated_at` still its
   * `created_at`) is claimed once, and any other only when its last claim or publish is older than
   * `reclaimAfterMs` (the instances hear a panel's presence within that time).
   */
  async claimPendingForPanels(
    deviceIds: number[],
    now: number,
    reclaimAfterMs: number,
  ): Promise<CommandRecord[]> {
    const out: CommandRecord[] = [];
    for (const part of chunks(deviceIds)) {
      const { rows } = await sql<CommandRecord>`UPDATE commands SET updated_at = ${claimedAt(now)}
        WHERE device_id IN (${sql.join(part)}) AND status IN ('queued', 'sent') AND expires_at > ${now}
          AND ((attempts = 0 AND updated_at = created_at) OR updated_at <= ${now - reclaimAfterMs})
        RETURNING *`.execute(this.db);
      out.push(...rows);
    }
    return out.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
  }

  /** Commands whose last attempt is older than `retryMs` and that have not expired. */
  dueForRetryForPanels(now: number, retryMs: number, limit: number): Promise<CommandRecord[]> {
    return this.db
      .selectFrom('commands')
      .selectAll()
      .where('status', 'in', ['queued', 'sent'])
      .where('expires_at', '>', now)
      .where('updated_at', '<=', now - retryMs)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  /**
   * Claims those of `ids` that are still due for a retry, for the caller to publish again: the
   * claim moves `updated_at` to now, so another instance that found them due too gets none of them
   * (on PostgreSQL rows another instance is claiming are skipped, not waited for). An instance
   * that dies after claiming leaves the rows due again `retryMs` later: the claim is a lease.
   */
  async claimForRetryForPanels(ids: string[], now: number, retryMs: number): Promise<CommandRecord[]> {
    const lock = this.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
    const due = sql`status IN ('queued', 'sent') AND expires_at > ${now} AND updated_at <= ${now - retryMs}`;
    const out: CommandRecord[] = [];
    for (const part of chunks(ids)) {
      const { rows } = await sql<CommandRecord>`UPDATE commands SET updated_at = ${claimedAt(now)}
        WHERE id IN (SELECT id FROM commands WHERE id IN (${sql.join(part)}) AND ${due} ${lock}) AND ${due}
        RETURNING *`.execute(this.db);
      out.push(...rows);
    }
    return out.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
  }

  /**
   * Hands back commands this instance claimed (or recorded as sent) but did not publish, because it
   * is shutting down: their last attempt moves a retry period back, so any instance's next retry
   * round claims and publishes them, without waiting out the claim's lease.
   */
  async handBackForPanels(ids: string[], now: number, retryMs: number) {
    for (const part of chunks(ids)) {
      await this.db
        .updateTable('commands')
        .set({ updated_at: now - retryMs })
        .where('id', 'in', part)
        .where('status', 'in', ['queued', 'sent'])
        .execute();
    }
  }

  /**
   * Applies acknowledgements in one statement, set-based, matching (id, device_id) pairs so a
   * panel can only settle its own commands. A final state never changes again; `received` only
   * moves a command that is not yet delivered; within a batch a final result wins over `received`.
   */
  async applyAcksForPanels(acks: AckUpdate[], now: number): Promise<SettledCommand[]> {
    const byId = new Map<string, AckUpdate>();
    for (const ack of acks) {
      const seen = byId.get(ack.id);
      if (!seen || (seen.status === 'delivered' && ack.status !== 'delivered')) byId.set(ack.id, ack);
    }
    if (!byId.size) return [];
    const { rows } = await settleStatement(this.dialect, [...byId.values()], now).execute(this.db);
    return rows;
  }

  /** Expires what is past its time; returns the expired commands. */
  async expireForPanels(now: number): Promise<SettledCommand[]> {
    return this.db
      .updateTable('commands')
      .set({ status: 'expired', detail: 'expired', updated_at: now })
      .where('status', 'in', OPEN_STATUSES)
      .where('expires_at', '<=', now)
      .returning(['id', 'org_id', 'device_id', 'order_code', 'status', 'detail', 'relay_for'])
      .execute();
  }

  /** POWERUP commands of panels that have just connected are done. */
  async succeedPowerUpsForPanels(deviceIds: number[], now: number) {
    for (const part of chunks(deviceIds)) {
      await this.db
        .updateTable('commands')
        .set({ status: 'succeeded', detail: 'online', updated_at: now })
        .where('device_id', 'in', part)
        .where('order_code', '=', 'POWERUP')
        .where('status', 'in', OPEN_STATUSES)
        .execute();
    }
  }

  findOne(orgId: number, id: string) {
    return this.db
      .selectFrom('commands')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Feedback log rows (spec 3): operator commands, newest first; relay commands are internal. */
  async feedbackPage(
    orgId: number,
    offset: number,
    size: number,
    filter: { deviceName?: string; from?: number; to?: number },
  ) {
    let query = this.db
      .selectFrom('commands')
      .innerJoin('devices', 'devices.id', 'commands.device_id')
      .leftJoin('users', 'users.id', 'commands.created_by')
      .where('commands.org_id', '=', orgId)
      .where('commands.order_code', '!=', 'WAKE');
    // Any part of the name, any case, wildcards taken literally, in both engines.
    if (filter.deviceName) query = query.where(containsFolded('devices.name', filter.deviceName));
    if (filter.from !== undefined) query = query.where('commands.created_at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('commands.created_at', '<', filter.to);
    const [rows, total] = await Promise.all([
      query
        .select([
          'commands.id',
          'commands.order_code',
          'commands.status',
          'commands.detail',
          'commands.created_at',
          'devices.name as device_name',
          'users.user_name',
        ])
        .orderBy('commands.created_at', 'desc')
        .orderBy('commands.id')
        .limit(size)
        .offset(offset)
        .execute(),
      query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }
}
