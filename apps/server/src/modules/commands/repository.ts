import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { CommandsTable, CommandStatus, Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

export type CommandRecord = Selectable<CommandsTable>;
export const OPEN_STATUSES: CommandStatus[] = ['queued', 'sent', 'delivered'];
const CHUNK = 500;

/** What the command service needs to know about a command an acknowledgement changed. */
export type SettledCommand = Pick<CommandRecord, 'id' | 'device_id' | 'order_code' | 'status' | 'relay_for'>;

export interface AckUpdate {
  id: string;
  deviceId: number;
  status: 'delivered' | 'succeeded' | 'failed';
  detail: string;
}

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Command rows; the database, never the broker, owns a command's state. */
export class CommandRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(rows: Insertable<CommandsTable>[]) {
    await this.db.transaction().execute(async (trx) => {
      for (const part of chunks(rows)) await trx.insertInto('commands').values(part).execute();
    });
  }

  async markSent(ids: string[], now: number) {
    for (const part of chunks(ids)) {
      await this.db
        .updateTable('commands')
        .set((eb) => ({ status: 'sent', attempts: eb('attempts', '+', 1), updated_at: now }))
        .where('id', 'in', part)
        .where('status', 'in', ['queued', 'sent'])
        .execute();
    }
  }

  async setStatus(ids: string[], status: CommandStatus, detail: string, now: number) {
    for (const part of chunks(ids)) {
      await this.db.updateTable('commands').set({ status, detail, updated_at: now }).where('id', 'in', part).where('status', 'in', OPEN_STATUSES).execute();
    }
  }

  /** Unacknowledged, unexpired commands of these devices, oldest first. */
  async pendingFor(deviceIds: number[], now: number): Promise<CommandRecord[]> {
    const out: CommandRecord[] = [];
    for (const part of chunks(deviceIds)) {
      out.push(
        ...(await this.db
          .selectFrom('commands')
          .selectAll()
          .where('device_id', 'in', part)
          .where('status', 'in', ['queued', 'sent'])
          .where('expires_at', '>', now)
          .orderBy('created_at')
          .execute()),
      );
    }
    return out;
  }

  /** Commands whose last attempt is older than `retryMs` and that have not expired. */
  dueForRetry(now: number, retryMs: number, limit: number): Promise<CommandRecord[]> {
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
   * Applies acknowledgements in one transaction, set-based: one UPDATE per (result, detail) and
   * chunk, matching (id, device_id) pairs so a panel can only settle its own commands. A final
   * state never changes again; within a batch a final result wins over `received`.
   */
  async applyAcks(acks: AckUpdate[], now: number): Promise<SettledCommand[]> {
    const byId = new Map<string, AckUpdate>();
    for (const ack of acks) {
      const seen = byId.get(ack.id);
      if (!seen || (seen.status === 'delivered' && ack.status !== 'delivered')) byId.set(ack.id, ack);
    }
    const groups = new Map<string, AckUpdate[]>();
    for (const ack of byId.values()) {
      const key = `${ack.status}\u0000${ack.detail}`;
      const group = groups.get(key);
      if (group) group.push(ack);
      else groups.set(key, [ack]);
    }
    return this.db.transaction().execute(async (trx) => {
      const changed: SettledCommand[] = [];
      for (const group of groups.values()) {
        const { status, detail } = group[0]!;
        const from: CommandStatus[] = status === 'delivered' ? ['queued', 'sent'] : OPEN_STATUSES;
        for (const part of chunks(group)) {
          const rows = await trx
            .updateTable('commands')
            .set({ status, detail, updated_at: now })
            .where((eb) => eb(eb.refTuple('id', 'device_id'), 'in', part.map((a) => eb.tuple(a.id, a.deviceId))))
            .where('status', 'in', from)
            .returning(['id', 'device_id', 'order_code', 'status', 'relay_for'])
            .execute();
          changed.push(...rows);
        }
      }
      return changed;
    });
  }

  async expire(now: number): Promise<number> {
    const result = await this.db
      .updateTable('commands')
      .set({ status: 'expired', detail: 'expired', updated_at: now })
      .where('status', 'in', OPEN_STATUSES)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** POWERUP commands of panels that have just connected are done. */
  async succeedPowerUps(deviceIds: number[], now: number) {
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
    return this.db.selectFrom('commands').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
  }

  /** Feedback log rows (spec 3): operator commands, newest first; relay commands are internal. */
  async feedbackPage(orgId: number, offset: number, size: number, filter: { deviceName?: string; from?: number; to?: number }) {
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
        .select(['commands.id', 'commands.order_code', 'commands.status', 'commands.created_at', 'devices.name as device_name', 'users.user_name'])
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
