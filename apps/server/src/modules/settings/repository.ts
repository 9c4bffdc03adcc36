import { settings } from '@panelfleet/contract';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { CommandStatus, Database } from '../../db/schema.js';
import type { SettingPushTargetsTable, SettingTemplatesTable } from '../../db/schema-settings.js';
import { CommandRepository, type CommandRecord } from '../commands/repository.js';
import { OperationLog, type OperationEntry } from '../operation-log/repository.js';

const { PUSH_CANCELLED_DETAIL } = settings;

export type SettingRecord = Selectable<SettingTemplatesTable>;
export type NewSetting = Insertable<SettingTemplatesTable>;

export interface NewPush {
  org_id: number;
  kind: string;
  created_by: number | null;
  created_at: number;
  expires_at: number;
}

export type NewPushTarget = Omit<Insertable<SettingPushTargetsTable>, 'push_id'>;

export interface PushTargetRow {
  device_id: number;
  device_name: string;
  device_key: string;
  setting_id: number | null;
  what: string;
  offline_at_push: number;
  status: CommandStatus;
  detail: string;
  updated_at: number;
}

/** Saved settings, their pushes and the pictures panels report; every read is scoped by org_id. */
export class SettingsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly now: () => number,
  ) {}

  async page(orgId: number, type: '0' | '1', series: string | undefined, offset: number, size: number) {
    let query = this.db.selectFrom('setting_templates').where('org_id', '=', orgId).where('type', '=', type);
    if (series) query = query.where('series', '=', series);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id').limit(size).offset(offset).execute(),
      query.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  find(orgId: number, id: number): Promise<SettingRecord | undefined> {
    return this.db
      .selectFrom('setting_templates')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findMany(orgId: number, ids: number[]): Promise<SettingRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('setting_templates')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** Inserts a setting and its log row together; undefined when the unique source index refused it. */
  async insert(row: NewSetting, log: OperationEntry): Promise<SettingRecord | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('setting_templates')
          .values(row)
          .returningAll()
          .executeTakeFirstOrThrow();
        await new OperationLog(trx, this.now).record(log);
        return inserted;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  async updateJson(
    orgId: number,
    id: number,
    jsonData: string,
    now: number,
    log: OperationEntry,
  ): Promise<SettingRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('setting_templates')
        .set({ json_data: jsonData, updated_at: now })
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (updated) await new OperationLog(trx, this.now).record(log);
      return updated;
    });
  }

  async remove(orgId: number, id: number, log: OperationEntry): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom('setting_templates')
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst();
      const removed = Number(result.numDeletedRows) > 0;
      if (removed) await new OperationLog(trx, this.now).record(log);
      return removed;
    });
  }

  /**
   * Records a push in one transaction: the push, its commands (committed before any is
   * published), which command is whose, and the operation-log row. Answers the push id.
   */
  async recordPush(
    push: NewPush,
    commands: CommandRecord[],
    targets: NewPushTarget[],
    log: OperationEntry,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('setting_pushes')
        .values({ ...push, target_count: targets.length })
        .returning('id')
        .executeTakeFirstOrThrow();
      await new CommandRepository(trx, this.dialect).insertMany(commands);
      for (let i = 0; i < targets.length; i += 500) {
        await trx
          .insertInto('setting_push_targets')
          .values(targets.slice(i, i + 500).map((t) => ({ ...t, push_id: id })))
          .execute();
      }
      await new OperationLog(trx, this.now).record(log);
      return id;
    });
  }

  findPush(orgId: number, pushId: number) {
    return this.db
      .selectFrom('setting_pushes')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', pushId)
      .executeTakeFirst();
  }

  /**
   * One page of a push's panels (by device name) with where their commands are, and the count
   * per outcome, read in one snapshot: read apart, an expiry or a reply landing between the two
   * reads made the counts disagree with the rows.
   */
  async pushTargets(orgId: number, pushId: number, offset: number, size: number) {
    const transaction = this.db.transaction();
    const read = (trx: Kysely<Database>) => this.pushTargetsIn(trx, orgId, pushId, offset, size);
    return this.dialect === 'postgres'
      ? transaction.setIsolationLevel('repeatable read').execute(read)
      : transaction.execute(read);
  }

  private async pushTargetsIn(
    db: Kysely<Database>,
    orgId: number,
    pushId: number,
    offset: number,
    size: number,
  ) {
    const base = db
      .selectFrom('setting_push_targets as t')
      .innerJoin('commands as c', 'c.id', 't.command_id')
      .innerJoin('devices as d', 'd.id', 't.device_id')
      .where('t.org_id', '=', orgId)
      .where('t.push_id', '=', pushId);
    // One after the other: a transaction holds one connection.
    const rows = await base
      .select([
        't.device_id',
        'd.name as device_name',
        'd.device_key',
        't.setting_id',
        't.what',
        't.offline_at_push',
        'c.status',
        'c.detail',
        'c.updated_at',
      ])
      .orderBy('d.name')
      .orderBy('t.command_id')
      .limit(size)
      .offset(offset)
      .execute();
    // Grouped by detail too, which tells a cancelled command (failed, detail cancelled) from a refusal.
    const groups = await base
      .select(['c.status', 't.offline_at_push', 'c.detail', sql<number>`count(*)`.as('n')])
      .groupBy(['c.status', 't.offline_at_push', 'c.detail'])
      .execute();
    return {
      rows: rows as PushTargetRow[],
      groups: groups.map((g) => ({
        status: g.status,
        offline: g.offline_at_push === 1,
        detail: g.detail,
        n: Number(g.n),
      })),
    };
  }

  /**
   * Ends the push's commands that have not left the server (queued: the panel has been off since
   * the push) as failed with detail `cancelled`, and writes the log row, together. A command
   * published meanwhile is no longer queued and is left alone.
   */
  async cancelPush(orgId: number, pushId: number, now: number, log: OperationEntry): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('commands')
        .set({ status: 'failed', detail: PUSH_CANCELLED_DETAIL, updated_at: now })
        .where('org_id', '=', orgId)
        .where('status', '=', 'queued')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('setting_push_targets')
            .select('command_id')
            .where('org_id', '=', orgId)
            .where('push_id', '=', pushId),
        )
        .executeTakeFirst();
      const cancelled = Number(result.numUpdatedRows);
      await new OperationLog(trx, this.now).record({
        ...log,
        content: { ...log.content, v: { ...log.content.v, count: cancelled } },
      });
      return cancelled;
    });
  }

  /** The systems panels last reported (devices that reported none are left out). */
  async systemsOf(orgId: number, deviceIds: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (let i = 0; i < deviceIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('device_pictures')
        .select(['device_id', 'system'])
        .where('org_id', '=', orgId)
        .where('device_id', 'in', deviceIds.slice(i, i + 500))
        .where('system', 'is not', null)
        .execute();
      for (const row of rows) out.set(row.device_id, row.system!);
    }
    return out;
  }

  picturesOf(orgId: number, deviceId: number) {
    return this.db
      .selectFrom('device_pictures')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
  }

  /** Replaces a panel's reported pictures (a report without pictures removes them). */
  async replacePicturesForPanel(
    orgId: number,
    deviceId: number,
    report: { system: string | null; pictures: string } | undefined,
    now: number,
  ) {
    if (!report) {
      await this.db.deleteFrom('device_pictures').where('device_id', '=', deviceId).execute();
      return;
    }
    const row = { org_id: orgId, system: report.system, pictures: report.pictures, reported_at: now };
    await this.db
      .insertInto('device_pictures')
      .values({ device_id: deviceId, ...row })
      .onConflict((oc) => oc.column('device_id').doUpdateSet(row))
      .execute();
  }
}
