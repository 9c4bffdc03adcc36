import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * What publishing reads beside the rollout engine's own tables: ownership of the chosen panels
 * and labels, a program's tasks and each panel's state with the download share it reported.
 */
export class PublishRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async ownedDeviceCount(orgId: number, ids: number[]) {
    const row = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async ownedLabelCount(orgId: number, ids: number[]) {
    const row = await this.db
      .selectFrom('labels')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The program's latest tasks with their panels counted by state (`finished`: a succeeded row whose play time is over). */
  async tasks(orgId: number, programId: number, limit = 20) {
    const tasks = await this.db
      .selectFrom('rollout_tasks')
      .select(['id', 'state', 'total', 'created_at', 'created_by_name'])
      .where('org_id', '=', orgId)
      .where('kind', '=', 'program')
      .where('payload_id', '=', programId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    if (!tasks.length) return [];
    const counts = await this.db
      .selectFrom('rollout_targets')
      .select([
        'task_id',
        sql<string>`CASE WHEN state = 'succeeded' AND reason = 'finished' THEN 'finished' ELSE state END`.as(
          'state',
        ),
        (eb) => eb.fn.countAll<number | string>().as('n'),
      ])
      .where('org_id', '=', orgId)
      .where(
        'task_id',
        'in',
        tasks.map((t) => t.id),
      )
      .groupBy([
        'task_id',
        sql`CASE WHEN state = 'succeeded' AND reason = 'finished' THEN 'finished' ELSE state END`,
      ])
      .execute();
    return tasks.map((task) => ({
      ...task,
      counts: counts.filter((c) => c.task_id === task.id).map((c) => ({ state: c.state, n: Number(c.n) })),
    }));
  }

  async taskOf(orgId: number, taskId: number) {
    return this.db
      .selectFrom('rollout_tasks')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('kind', '=', 'program')
      .where('id', '=', taskId)
      .executeTakeFirst();
  }

  /** Panels of a task that still download, are ready or play (a cancel stops them). */
  async runningCount(orgId: number, taskId: number) {
    const row = await this.db
      .selectFrom('rollout_targets')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('org_id', '=', orgId)
      .where('task_id', '=', taskId)
      .where((eb) =>
        eb.or([
          eb('state', 'in', ['queued', 'waiting', 'sent', 'downloading', 'verifying', 'installing']),
          eb.and([eb('state', '=', 'succeeded'), eb('reason', '=', '')]),
        ]),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A panel's row in a task (undefined when the panel is not in it). */
  async targetOf(orgId: number, taskId: number, deviceId: number) {
    return this.db
      .selectFrom('rollout_targets as t')
      .leftJoin('devices as d', 'd.id', 't.device_id')
      .select(['t.id', 't.state', 't.reason', 'd.name as device_name', 'd.device_key'])
      .where('t.org_id', '=', orgId)
      .where('t.task_id', '=', taskId)
      .where('t.device_id', '=', deviceId)
      .executeTakeFirst();
  }

  async targets(orgId: number, taskId: number, offset: number, size: number) {
    const base = this.db
      .selectFrom('rollout_targets as t')
      .innerJoin('devices as d', 'd.id', 't.device_id')
      .where('t.org_id', '=', orgId)
      .where('t.task_id', '=', taskId);
    const [rows, total] = await Promise.all([
      base
        .leftJoin('program_download_progress as p', 'p.command_id', 't.command_id')
        .select(['t.device_id', 't.state', 't.reason', 't.updated_at', 'd.name', 'd.device_key', 'p.percent'])
        .orderBy('t.id')
        .limit(size)
        .offset(offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /**
   * The download share a panel reported for one of its own program commands (a command id of
   * another panel writes nothing).
   */
  async recordProgressForPanel(deviceId: number, commandId: string, percent: number, now: number) {
    await this.db
      .insertInto('program_download_progress')
      .columns(['command_id', 'percent', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('rollout_targets')
          .select([
            sql<string>`command_id`.as('command_id'),
            sql<number>`CAST(${percent} AS integer)`.as('percent'),
            sql<number>`CAST(${now} AS bigint)`.as('updated_at'),
          ])
          .where('command_id', '=', commandId)
          .where('device_id', '=', deviceId),
      )
      .onConflict((oc) =>
        oc.column('command_id').doUpdateSet((eb) => ({
          percent: eb.ref('excluded.percent'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}
