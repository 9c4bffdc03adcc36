import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { CommandsTable, CommandStatus, Database } from '../../db/schema.js';

export type CommandRecord = Selectable<CommandsTable>;
export const OPEN_STATUSES: CommandStatus[] = ['queued', 'sent', 'delivered'];
const CHUNK = 500;

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

  /** Applies acknowledgements in one transaction; a final state never changes again. */
  async applyAcks(acks: AckUpdate[], now: number): Promise<CommandRecord[]> {
    return this.db.transaction().execute(async (trx) => {
      const changed: CommandRecord[] = [];
      for (const ack of acks) {
        const from: CommandStatus[] = ack.status === 'delivered' ? ['queued', 'sent'] : OPEN_STATUSES;
        const row = await trx
          .updateTable('commands')
          .set({ status: ack.status, detail: ack.detail, updated_at: now })
          .where('id', '=', ack.id)
          .where('device_id', '=', ack.deviceId)
          .where('status', 'in', from)
          .returningAll()
          .executeTakeFirst();
        if (row) changed.push(row);
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

  async succeedPowerUps(deviceId: number, now: number) {
    await this.db
      .updateTable('commands')
      .set({ status: 'succeeded', detail: 'online', updated_at: now })
      .where('device_id', '=', deviceId)
      .where('order_code', '=', 'POWERUP')
      .where('status', 'in', OPEN_STATUSES)
      .execute();
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
    if (filter.deviceName) query = query.where('devices.name', 'like', `%${filter.deviceName.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
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
