import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { TargetState } from '@panelfleet/contract';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { RolloutTasksTable } from '../../db/schema-ota.js';
import type { CustomerScope } from '../customers/policy.js';
import { TaskCreator, type NewTask, type WaveSizes } from './task-creation-repository.js';

export type TaskRecord = Selectable<RolloutTasksTable>;

export interface StateCount {
  wave: number;
  state: TargetState;
  n: number;
}

/**
 * Rollout tasks and their waves: made (task-creation-repository.ts), leased, fired, advanced, counted and
 * read for the task views. The per-panel rows' steps are target-repository.ts's; all SQL of
 * rollouts lives in these files.
 */
export class RolloutRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * A task with a row per panel of its labels or list, in one transaction (the caller's when this
   * repository is bound to one); see TaskCreator.
   */
  createTask(
    task: NewTask,
    waves: WaveSizes | ((eligible: number) => WaveSizes),
  ): Promise<{ id: number; total: number; skipped: number; waveCount: number }> {
    return new TaskCreator(this.db, this.dialect).createTask(task, waves);
  }

  /** A keep-adding task's panels that started to match its labels join it (TaskCreator.addMatching). */
  addMatching(task: TaskRecord, now: number): Promise<number> {
    return new TaskCreator(this.db, this.dialect).addMatching(task, now);
  }

  /**
   * Leases the tasks this instance should work now (due, unfinished, not leased by another
   * instance). PostgreSQL skips rows another instance holds locked (FOR UPDATE SKIP LOCKED);
   * SQLite has a single writer.
   */
  async leaseTasks(owner: string, now: number, leaseMs: number, limit = 50): Promise<TaskRecord[]> {
    const lock = this.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
    const { rows } =
      await sql<TaskRecord>`UPDATE rollout_tasks SET lease_owner = ${owner}, lease_until = ${now + leaseMs}
      WHERE id IN (SELECT id FROM rollout_tasks
        WHERE state IN ('scheduled', 'running', 'paused') AND fire_at <= ${now}
          AND (lease_until IS NULL OR lease_until < ${now} OR lease_owner = ${owner})
        ORDER BY id LIMIT ${limit} ${lock})
      RETURNING *`.execute(this.db);
    return rows;
  }

  async releaseLeases(owner: string) {
    await this.db
      .updateTable('rollout_tasks')
      .set({ lease_owner: null, lease_until: null })
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Fires a timed task: exactly once, because only the transition from scheduled succeeds. */
  async fire(taskId: number, now: number, jitterMs: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const fired = await trx
        .updateTable('rollout_tasks')
        .set({ state: 'running', fired_at: now, updated_at: now })
        .where('id', '=', taskId)
        .where('state', '=', 'scheduled')
        .executeTakeFirst();
      if (Number(fired.numUpdatedRows) !== 1) return false;
      await this.startWave(trx, taskId, 0, now, jitterMs);
      return true;
    });
  }

  /** A timed task whose server came back after its late window: missed, its panels skipped. */
  async miss(taskId: number, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const missed = await trx
        .updateTable('rollout_tasks')
        .set({ state: 'missed', state_reason: 'ota.missed', updated_at: now, finished_at: now })
        .where('id', '=', taskId)
        .where('state', '=', 'scheduled')
        .executeTakeFirst();
      if (Number(missed.numUpdatedRows) !== 1) return false;
      await trx
        .updateTable('rollout_targets')
        .set({ state: 'skipped', reason: 'lateWindowPassed', updated_at: now })
        .where('task_id', '=', taskId)
        .where('state', 'in', ['queued', 'waiting'])
        .execute();
      return true;
    });
  }

  /** A wave starts: its panels get start times spread over the jitter window. */
  private async startWave(
    trx: Transaction<Database>,
    taskId: number,
    wave: number,
    now: number,
    jitterMs: number,
  ) {
    await trx
      .updateTable('rollout_waves')
      .set({ started_at: now })
      .where('task_id', '=', taskId)
      .where('wave', '=', wave)
      .where('started_at', 'is', null)
      .execute();
    const spread =
      jitterMs <= 0
        ? sql`${now}`
        : this.dialect === 'postgres'
          ? sql`${now} + floor(random() * ${jitterMs})::bigint`
          : sql`${now} + abs(random()) % ${jitterMs}`;
    await sql`UPDATE rollout_targets SET not_before = ${spread}
      WHERE task_id = ${taskId} AND wave = ${wave} AND state = 'queued' AND not_before IS NULL`.execute(trx);
  }

  /** Moves the task to its next wave (from `from`, so two instances never advance it twice). */
  async advance(taskId: number, from: number, now: number, jitterMs: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('rollout_tasks')
        .set({ current_wave: from + 1, updated_at: now })
        .where('id', '=', taskId)
        .where('current_wave', '=', from)
        .where('wave_count', '>', from + 1)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      await this.startWave(trx, taskId, from + 1, now, jitterMs);
      return true;
    });
  }

  async setState(
    taskId: number,
    from: TaskRecord['state'][],
    to: TaskRecord['state'],
    reason: string,
    vars: Record<string, string | number>,
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('rollout_tasks')
      .set({
        state: to,
        state_reason: reason,
        state_vars: JSON.stringify(vars),
        updated_at: now,
        ...(to === 'completed' || to === 'cancelled' ? { finished_at: now } : {}),
      })
      .where('id', '=', taskId)
      .where('state', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Panels per wave and state (one grouped read of the task's index). */
  async counts(taskId: number): Promise<StateCount[]> {
    const rows = await this.db
      .selectFrom('rollout_targets')
      .select(['wave', 'state', (eb) => eb.fn.countAll<number>().as('n')])
      .where('task_id', '=', taskId)
      .groupBy(['wave', 'state'])
      .execute();
    return rows.map((r) => ({ wave: r.wave, state: r.state as TargetState, n: Number(r.n) }));
  }

  /** A task within the scope (another tenant's reads as missing). */
  findTask(scope: CustomerScope, id: number): Promise<TaskRecord | undefined> {
    return this.db
      .selectFrom('rollout_tasks')
      .selectAll()
      .where('id', '=', id)
      .where(orgIn(scope, 'rollout_tasks.org_id'))
      .executeTakeFirst();
  }

  /** One page of tasks of a kind within the scope, newest first, optionally created within [from, to). */
  async taskPage(
    scope: CustomerScope,
    kind: string,
    offset: number,
    size: number,
    range?: { from: number; to: number },
    payloadId?: number,
  ) {
    let query = this.db
      .selectFrom('rollout_tasks')
      .where('kind', '=', kind)
      .where(orgIn(scope, 'rollout_tasks.org_id'));
    if (range) query = query.where('created_at', '>=', range.from).where('created_at', '<', range.to);
    if (payloadId !== undefined) query = query.where('payload_id', '=', payloadId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** Tasks of a kind that use a payload and are not finished. */
  async openTasksOf(kind: string, payloadIds: number[]): Promise<Map<number, number>> {
    if (!payloadIds.length) return new Map();
    const rows = await this.db
      .selectFrom('rollout_tasks')
      .select(['payload_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('kind', '=', kind)
      .where('payload_id', 'in', payloadIds)
      .where('state', 'in', ['scheduled', 'running', 'paused'])
      .groupBy('payload_id')
      .execute();
    return new Map(rows.map((r) => [r.payload_id, Number(r.n)]));
  }

  /** Panels that succeeded with each payload, within the scope. */
  async succeededOf(kind: string, payloadIds: number[], scope: CustomerScope): Promise<Map<number, number>> {
    if (!payloadIds.length) return new Map();
    const rows = await this.db
      .selectFrom('rollout_targets')
      .innerJoin('rollout_tasks', 'rollout_tasks.id', 'rollout_targets.task_id')
      .select(['rollout_tasks.payload_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('rollout_tasks.kind', '=', kind)
      .where('rollout_tasks.payload_id', 'in', payloadIds)
      .where('rollout_targets.state', '=', 'succeeded')
      .where(orgIn(scope, 'rollout_tasks.org_id'))
      .groupBy('rollout_tasks.payload_id')
      .execute();
    return new Map(rows.map((r) => [r.payload_id, Number(r.n)]));
  }

  /** One page of a task's panels with what the manage dialog shows. */
  async targetPage(taskId: number, offset: number, size: number, state?: TargetState) {
    let query = this.db
      .selectFrom('rollout_targets')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .where('rollout_targets.task_id', '=', taskId);
    if (state) query = query.where('rollout_targets.state', '=', state);
    const [rows, total] = await Promise.all([
      query
        .select([
          'rollout_targets.id',
          'rollout_targets.device_id',
          'rollout_targets.wave',
          'rollout_targets.state',
          'rollout_targets.reason',
          'rollout_targets.from_version',
          'rollout_targets.not_before',
          'rollout_targets.updated_at',
          'devices.name',
          'devices.device_key',
          'devices.ota_current',
          'devices.ota_total',
          'devices.apk_current',
          'devices.apk_total',
        ])
        .orderBy('rollout_targets.id')
        .limit(size)
        .offset(offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** One page of per-panel results of a kind within the scope (the OTA log), newest first. */
  async resultPage(
    scope: CustomerScope,
    kind: string,
    offset: number,
    size: number,
    filter: { deviceKey?: string; states?: readonly string[]; version?: string },
  ) {
    let query = this.db
      .selectFrom('rollout_targets')
      .innerJoin('rollout_tasks', 'rollout_tasks.id', 'rollout_targets.task_id')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .where('rollout_tasks.kind', '=', kind)
      .where(orgIn(scope, 'rollout_targets.org_id'));
    if (filter.deviceKey) {
      const prefix = filter.deviceKey;
      query = query
        .where('devices.device_key', '>=', prefix)
        .where('devices.device_key', '<', `${prefix}\u{10FFFF}`);
    }
    if (filter.states) query = query.where('rollout_targets.state', 'in', [...filter.states]);
    if (filter.version) {
      const version = filter.version;
      query = query.where((eb) =>
        eb.or([
          eb('rollout_targets.from_version', '=', version),
          eb('rollout_tasks.payload_label', '=', version),
        ]),
      );
    }
    const [rows, total] = await Promise.all([
      query
        .select([
          'rollout_targets.id',
          'rollout_targets.task_id',
          'rollout_targets.state',
          'rollout_targets.reason',
          'rollout_targets.from_version',
          'rollout_targets.created_at',
          'rollout_targets.updated_at',
          'rollout_tasks.payload_label',
          'devices.device_key',
          'devices.name',
          'devices.machine_type',
        ])
        .orderBy('rollout_targets.id', 'desc')
        .limit(size)
        .offset(offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  findTarget(taskId: number, deviceId: number) {
    return this.db
      .selectFrom('rollout_targets as t')
      .leftJoin('devices as d', 'd.id', 't.device_id')
      .select(['t.id', 't.state', 't.command_id', 'd.name as device_name', 'd.device_key'])
      .where('t.task_id', '=', taskId)
      .where('t.device_id', '=', deviceId)
      .executeTakeFirst();
  }

  async waves(taskId: number) {
    return this.db
      .selectFrom('rollout_waves')
      .selectAll()
      .where('task_id', '=', taskId)
      .orderBy('wave')
      .execute();
  }
}

/** Rows of organisations within the scope: all, a distributor's customers, or one organisation. */
export function orgIn(scope: CustomerScope, column: string) {
  if (scope.kind === 'own') return sql<boolean>`${sql.ref(column)} = ${scope.orgId}`;
  if (scope.kind === 'children')
    return sql<boolean>`${sql.ref(column)} IN (SELECT id FROM organisations WHERE parent_id = ${scope.parentId})`;
  return sql<boolean>`1 = 1`;
}
