import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { TargetState } from '@panelfleet/contract';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { RolloutTasksTable } from '../../db/schema-ota.js';
import type { CustomerScope } from '../customers/policy.js';
import { Refusal } from '../../refusal.js';

export type TaskRecord = Selectable<RolloutTasksTable>;

/**
 * A rule that skips a panel at creation: unless the device column holds one of the values (`in`),
 * or when it equals `equals`. Rules are checked in order; the first that matches names the reason.
 */
export type SkipRule =
  | { reason: string; column: 'machine_type' | 'ota_version'; notIn: string[] }
  | { reason: string; column: 'machine_type' | 'ota_version'; equals: string }
  | { reason: string; disabled: true };

export interface NewTask {
  orgId: number;
  kind: string;
  payloadId: number;
  payload: unknown;
  payloadLabel: string;
  labelIds: number[];
  /** Chosen panels instead of labels (an APK install to devices picked in a list). */
  deviceIds?: number[];
  skip: SkipRule[];
  timeEnable: boolean;
  fireAt: number;
  fireBy: number | null;
  waves: { mode: 'none' | 'count' | 'percent'; first?: number; step?: number };
  successShare: number;
  failureShare: number;
  minResults: number;
  maxDownloads: number | null;
  createdBy: number | null;
  createdByName: string;
  now: number;
}

export interface Candidate {
  targetId: number;
  deviceId: number;
  deviceKey: string;
  publicIp: string;
  utcOffset: number | null;
  otaVersion: string;
  state: TargetState;
  notBefore: number | null;
}

export interface StateCount {
  wave: number;
  state: TargetState;
  n: number;
}

/** The order of a panel's steps: an acknowledgement only moves a panel forward. */
const BEFORE: Record<'downloading' | 'verifying' | 'installing' | 'final', TargetState[]> = {
  downloading: ['sent'],
  verifying: ['sent', 'downloading'],
  installing: ['sent', 'downloading', 'verifying'],
  final: ['sent', 'downloading', 'verifying', 'installing'],
};

/** Panels in the first wave, then in each further wave. */
export interface WaveSizes {
  first: number;
  step: number;
}

/** Waves up to which a staged task's rows take their wave from a CASE over device ids (more: numbered). */
const MAX_WAVE_CUTS = 64;
/** Device ids per bucket when a staged task on SQLite finds where its waves end. */
const ID_BUCKET = 128;

/** Tasks, waves and per-panel rows of the rollout engine; all SQL of rollouts lives here. */
export class RolloutRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** The reason expression of the skip rules over devices `d` ('' when none applies). */
  private reasonOf(rules: SkipRule[]) {
    if (!rules.length) return sql<string>`''`;
    const cases = rules.map((rule) => {
      if ('disabled' in rule) return sql`WHEN d.state <> 1 THEN ${rule.reason}`;
      const column = sql.ref(`d.${rule.column}`);
      if ('equals' in rule) return sql`WHEN ${column} = ${rule.equals} THEN ${rule.reason}`;
      if (!rule.notIn.length) return sql`WHEN 1 = 0 THEN ''`;
      return sql`WHEN ${column} NOT IN (${sql.join(rule.notIn)}) THEN ${rule.reason}`;
    });
    return sql<string>`CASE ${sql.join(cases, sql` `)} ELSE '' END`;
  }

  /**
   * The task's panels: the chosen ones of the organisation, or the members of its labels
   * (de-duplicated). With `ids`, only those in that range of device ids, read by the primary key
   * (the unary plus keeps SQLite from choosing the organisation's index instead).
   */
  private targetsOf(task: NewTask, ids?: { from: number; to: number }) {
    const org = ids
      ? sql`+d.org_id = ${task.orgId} AND d.id >= ${ids.from} AND d.id < ${ids.to}`
      : sql`d.org_id = ${task.orgId}`;
    if (task.deviceIds) return sql`FROM devices d WHERE ${org} AND d.id IN (${sql.join(task.deviceIds)})`;
    return sql`FROM devices d WHERE ${org} AND EXISTS (SELECT 1 FROM label_devices g
      WHERE g.device_id = d.id AND g.label_id IN (${sql.join(task.labelIds)}))`;
  }

  /**
   * A task with a row per panel of the labels, in one transaction: panels the skip rules exclude
   * are `skipped` with the reason, the rest `queued` in waves of `first`, then `step` panels, by
   * device id. One INSERT ... SELECT, whatever the size of the fleet. `waves` may be a function of
   * the number of panels that pass the skip rules (waves in percent).
   */
  async createTask(
    task: NewTask,
    waves: WaveSizes | ((eligible: number) => WaveSizes),
  ): Promise<{ id: number; total: number; skipped: number; waveCount: number }> {
    // Inside the caller's transaction when this repository is bound to one (an APK install
    // holds its card's lock while the task is made).
    const within = <T>(work: (trx: Kysely<Database>) => Promise<T>) =>
      this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
    return within(async (trx) => {
      const { id } = await trx
        .insertInto('rollout_tasks')
        .values({
          org_id: task.orgId,
          kind: task.kind,
          payload_id: task.payloadId,
          payload: JSON.stringify(task.payload),
          payload_label: task.payloadLabel,
          state: task.timeEnable ? 'scheduled' : 'running',
          time_enable: task.timeEnable ? 1 : 0,
          fire_at: task.fireAt,
          fire_by: task.fireBy,
          // A task that starts at once fired when it was made.
          fired_at: task.timeEnable ? null : task.now,
          wave_mode: task.waves.mode,
          success_share: task.successShare,
          failure_share: task.failureShare,
          min_results: task.minResults,
          wave_count: 1,
          total: 0,
          max_downloads: task.maxDownloads,
          created_by: task.createdBy,
          created_by_name: task.createdByName,
          created_at: task.now,
          updated_at: task.now,
          finished_at: null,
          lease_owner: null,
          lease_until: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const reason = this.reasonOf(task.skip);
      // One wave needs no numbering: the rows stream straight from the labels into the task.
      const staged = task.waves.mode !== 'none';
      let sized = typeof waves === 'function' ? undefined : waves;
      // Staged on SQLite, whose write transaction (held since the task row) keeps the panels from
      // changing under it: the eligible panels counted in buckets of ids (one pass, a few hundred
      // rows back) give their number (waves in percent) and the bucket of each wave's last panel,
      // found then in its bucket alone; the rows stream in as a one-wave task's do, the wave a CASE
      // over those ids, without a numbering window that sorts every row.
      let cuts: number[] | undefined;
      if (staged && this.dialect === 'sqlite') {
        const eligibleOf = sql`${this.targetsOf(task)} AND ${reason} = ''`;
        const { rows: buckets } = await sql<{
          b: number;
          n: number;
        }>`SELECT d.id / ${sql.lit(ID_BUCKET)} AS b, count(*) AS n ${eligibleOf} GROUP BY 1 ORDER BY 1`.execute(
          trx,
        );
        const eligible = buckets.reduce((sum, bucket) => sum + Number(bucket.n), 0);
        sized = typeof waves === 'function' ? waves(eligible) : waves;
        const ranks: number[] = [];
        for (let end = sized.first; end < eligible && ranks.length <= MAX_WAVE_CUTS; end += sized.step)
          ranks.push(end);
        if (ranks.length <= MAX_WAVE_CUTS) {
          cuts = [];
          let i = 0;
          let before = 0;
          for (const rank of ranks) {
            while (before + Number(buckets[i]!.n) < rank) before += Number(buckets[i++]!.n);
            const from = Number(buckets[i]!.b) * ID_BUCKET;
            const inBucket = this.targetsOf(task, { from, to: from + ID_BUCKET });
            const { rows } = await sql<{ id: number }>`SELECT d.id ${inBucket} AND ${reason} = ''
              ORDER BY d.id LIMIT 1 OFFSET ${rank - before - 1}`.execute(trx);
            cuts.push(Number(rows[0]!.id));
          }
        }
      }
      if (!sized) {
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*) AS n ${this.targetsOf(task)} AND ${reason} = ''`.execute(trx);
        sized = (waves as (eligible: number) => WaveSizes)(Number(rows[0]?.n ?? 0));
      }
      const numbered = staged && !cuts;
      const source = numbered
        ? sql`(SELECT d.id, d.ota_version, ${reason} AS reason,
            row_number() OVER (PARTITION BY CASE WHEN ${reason} = '' THEN 0 ELSE 1 END ORDER BY d.id) AS rn
            ${this.targetsOf(task)}) s`
        : // The fence (a no-op LIMIT/OFFSET) keeps the subquery from being merged into the INSERT, so
          // the skip rules run once per panel instead of once per column that reads their result.
          sql`(SELECT d.id, d.ota_version, ${reason} AS reason ${this.targetsOf(task)}
            ${this.dialect === 'sqlite' ? sql`LIMIT -1 OFFSET 0` : sql`OFFSET 0`}) s`;
      const wave = cuts
        ? sql`CASE WHEN s.reason <> '' THEN -1 ${sql.join(
            cuts.map((id, i) => sql`WHEN s.id <= ${id} THEN ${i}`),
            sql` `,
          )} ELSE ${cuts.length} END`
        : numbered
          ? sql`CASE WHEN s.reason <> '' THEN -1 WHEN s.rn <= ${sized.first} THEN 0
            ELSE 1 + CAST((s.rn - ${sized.first} - 1) / ${sized.step} AS INTEGER) END`
          : sql`CASE WHEN s.reason <> '' THEN -1 ELSE 0 END`;
      const inserted =
        await sql`INSERT INTO rollout_targets (task_id, org_id, device_id, wave, state, reason, from_version, created_at, updated_at)
        SELECT ${id}, ${task.orgId}, s.id, ${wave}, CASE WHEN s.reason = '' THEN 'queued' ELSE 'skipped' END, s.reason, s.ota_version, ${task.now}, ${task.now}
        FROM ${source}`.execute(trx);
      const total = Number(inserted.numAffectedRows ?? 0);
      // Labels without panels make no task (the transaction rolls back).
      if (total === 0) throw new Refusal('ota.noDevices', 'declined');
      // Skipped rows are one range of the task's index; the waves' sizes follow from the rest.
      const skippedRow = await trx
        .selectFrom('rollout_targets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('task_id', '=', id)
        .where('state', '=', 'skipped')
        .executeTakeFirstOrThrow();
      const skipped = Number(skippedRow.n);
      const eligible = total - skipped;
      const sizes: number[] = [];
      for (let placed = 0; placed < eligible;) {
        const size = Math.min(
          eligible - placed,
          !staged ? eligible : sizes.length ? sized.step : sized.first,
        );
        sizes.push(size);
        placed += size;
      }
      const waveCount = Math.max(1, sizes.length);
      if (sizes.length)
        await trx
          .insertInto('rollout_waves')
          .values(
            sizes.map((size, wave) => ({
              task_id: id,
              wave,
              size,
              // A task that starts at once starts its first wave now; a timed one when it fires.
              started_at: wave === 0 && !task.timeEnable ? task.now : null,
            })),
          )
          .execute();
      await trx
        .updateTable('rollout_tasks')
        .set({ total, wave_count: waveCount })
        .where('id', '=', id)
        .execute();
      return { id, total, skipped, waveCount };
    });
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

  /** Download slots in use across every task: panels sent or downloading that were seen lately. */
  async inFlight(seenSince: number, taskId?: number): Promise<number> {
    let query = this.db
      .selectFrom('rollout_targets')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rollout_targets.state', 'in', ['sent', 'downloading'])
      .where('devices.last_seen_at', '>', seenSince);
    if (taskId !== undefined) query = query.where('rollout_targets.task_id', '=', taskId);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Panels of the task that may start now, in wave and start order (`afterId`: keyset past panels tried this round). */
  async candidates(
    taskId: number,
    maxWave: number,
    now: number,
    limit: number,
    afterId = 0,
  ): Promise<Candidate[]> {
    const rows = await this.db
      .selectFrom('rollout_targets')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .select([
        'rollout_targets.id',
        'rollout_targets.device_id',
        'rollout_targets.state',
        'rollout_targets.not_before',
        'devices.device_key',
        'devices.public_ip',
        'devices.utc_offset',
        'devices.ota_version',
      ])
      .where('rollout_targets.task_id', '=', taskId)
      .where('rollout_targets.state', 'in', ['queued', 'waiting'])
      .where('rollout_targets.wave', '<=', maxWave)
      .where('rollout_targets.wave', '>=', 0)
      .where((eb) =>
        eb.or([eb('rollout_targets.not_before', 'is', null), eb('rollout_targets.not_before', '<=', now)]),
      )
      .where('rollout_targets.id', '>', afterId)
      .orderBy('rollout_targets.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      targetId: r.id,
      deviceId: r.device_id,
      deviceKey: r.device_key,
      publicIp: r.public_ip,
      utcOffset: r.utc_offset,
      otaVersion: r.ota_version,
      state: r.state as TargetState,
      notBefore: r.not_before,
    }));
  }

  /** Whether any of these panels (that have just come online) has a row waiting in a running task. */
  async anyOpenTargetOf(deviceIds: number[]): Promise<boolean> {
    for (const part of chunk(deviceIds, 500)) {
      const row = await this.db
        .selectFrom('rollout_targets')
        .innerJoin('rollout_tasks', 'rollout_tasks.id', 'rollout_targets.task_id')
        .select('rollout_targets.id')
        .where('rollout_targets.device_id', 'in', part)
        .where('rollout_targets.state', 'in', ['queued', 'waiting'])
        .where('rollout_tasks.state', '=', 'running')
        .limit(1)
        .executeTakeFirst();
      if (row) return true;
    }
    return false;
  }

  async skip(targetIds: number[], reason: string, now: number) {
    if (!targetIds.length) return;
    await this.db
      .updateTable('rollout_targets')
      .set({ state: 'skipped', reason, updated_at: now })
      .where('id', 'in', targetIds)
      .where('state', 'in', ['queued', 'waiting'])
      .execute();
  }

  async wait(targets: Array<{ id: number; until: number }>, now: number) {
    for (const t of targets)
      await this.db
        .updateTable('rollout_targets')
        .set({ state: 'waiting', not_before: t.until, updated_at: now })
        .where('id', '=', t.id)
        .where('state', 'in', ['queued', 'waiting'])
        .execute();
  }

  /**
   * Claims panels for dispatch and records their commands in one transaction: only rows still
   * queued or waiting are taken (PostgreSQL locks them, skipping rows another instance holds),
   * each gets its command id, and `record` inserts the commands inside the same transaction.
   */
  async claim<T extends { targetId: number; commandId: string }>(
    wanted: T[],
    now: number,
    record: (claimed: T[], trx: Kysely<Database>) => Promise<void>,
  ): Promise<T[]> {
    if (!wanted.length) return [];
    return this.db.transaction().execute(async (trx) => {
      const lock = this.dialect === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
      const { rows } = await sql<{ id: number }>`SELECT id FROM rollout_targets
        WHERE id IN (${sql.join(wanted.map((w) => w.targetId))}) AND state IN ('queued', 'waiting') ${lock}`.execute(
        trx,
      );
      const free = new Set(rows.map((r) => r.id));
      const claimed = wanted.filter((w) => free.has(w.targetId));
      if (!claimed.length) return [];
      for (const part of chunk(claimed, 500)) {
        const cases = sql.join(
          part.map((c) => sql`WHEN ${c.targetId} THEN ${c.commandId}`),
          sql` `,
        );
        await sql`UPDATE rollout_targets SET state = 'sent', command_id = CASE id ${cases} END, updated_at = ${now}
          WHERE id IN (${sql.join(part.map((c) => c.targetId))})`.execute(trx);
      }
      await record(claimed, trx);
      return claimed;
    });
  }

  /**
   * A panel's acknowledgements move its row forward (never back, never out of a final state):
   * one statement per new state and reason.
   */
  async progress(commandIds: string[], to: TargetState, reason: string, now: number) {
    if (!commandIds.length) return 0;
    const from =
      to === 'downloading'
        ? BEFORE.downloading
        : to === 'verifying'
          ? BEFORE.verifying
          : to === 'installing'
            ? BEFORE.installing
            : BEFORE.final;
    let changed = 0;
    for (const part of chunk(commandIds, 500)) {
      const result = await this.db
        .updateTable('rollout_targets')
        .set({ state: to, reason, updated_at: now })
        .where('command_id', 'in', part)
        .where('state', 'in', from)
        .executeTakeFirst();
      changed += Number(result.numUpdatedRows);
    }
    return changed;
  }

  /**
   * Rows whose command ended without the acknowledgement reaching the engine (expired, or the
   * process stopped between the two writes) take the command's result.
   */
  async reconcile(taskId: number, now: number) {
    await sql`UPDATE rollout_targets SET
        state = CASE WHEN c.status = 'succeeded' THEN 'succeeded' ELSE 'failed' END,
        reason = CASE WHEN c.status = 'succeeded' THEN '' WHEN c.status = 'expired' THEN 'expired'
          WHEN c.detail IN ('download', 'checksum', 'signature', 'model', 'fromVersion', 'downgrade', 'install', 'unsupported') THEN c.detail ELSE 'install' END,
        updated_at = ${now}
      FROM commands c
      WHERE rollout_targets.task_id = ${taskId} AND c.id = rollout_targets.command_id
        AND rollout_targets.state IN ('sent', 'downloading', 'verifying', 'installing')
        AND c.status IN ('succeeded', 'failed', 'expired')`.execute(this.db);
  }

  /**
   * A program's play time is over (its second `succeeded`, detail `finished`): the row is finished
   * unless it was cancelled or failed first (a `finished` arriving with `playing` in one batch too).
   */
  async finish(commandIds: string[], now: number) {
    for (const part of chunk(commandIds, 500))
      await this.db
        .updateTable('rollout_targets')
        .set({ state: 'succeeded', reason: 'finished', updated_at: now })
        .where('command_id', 'in', part)
        .where((eb) =>
          eb.or([
            eb('state', 'in', BEFORE.final),
            eb.and([eb('state', '=', 'succeeded'), eb('reason', '=', '')]),
          ]),
        )
        .execute();
  }

  /**
   * Cancels panels not yet verifying (`runsOn`: also verifying, installing and succeeded but not
   * finished, as a program plays on after it succeeded); returns their commands (to stop) and
   * devices. The same condition holds in the UPDATE, so a row that finished meanwhile stays.
   */
  async cancelTargets(
    taskId: number,
    deviceId: number | undefined,
    reason: string,
    now: number,
    runsOn = false,
  ) {
    const states: TargetState[] = runsOn
      ? ['queued', 'waiting', 'sent', 'downloading', 'verifying', 'installing']
      : ['queued', 'waiting', 'sent', 'downloading'];
    const cancellable = (eb: ExpressionBuilder<Database, 'rollout_targets'>) =>
      runsOn
        ? eb.or([eb('state', 'in', states), eb.and([eb('state', '=', 'succeeded'), eb('reason', '=', '')])])
        : eb('state', 'in', states);
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('rollout_targets')
        .select(['id', 'device_id', 'command_id', 'state'])
        .where('task_id', '=', taskId)
        .where(cancellable);
      if (deviceId !== undefined) query = query.where('device_id', '=', deviceId);
      const rows = await query.execute();
      const cancelled: typeof rows = [];
      for (const part of chunk(rows, 500)) {
        const changed = await trx
          .updateTable('rollout_targets')
          .set({ state: 'cancelled', reason, updated_at: now })
          .where(
            'id',
            'in',
            part.map((r) => r.id),
          )
          .where(cancellable)
          .returning('id')
          .execute();
        const ids = new Set(changed.map((r) => r.id));
        cancelled.push(...part.filter((r) => ids.has(r.id)));
      }
      return cancelled;
    });
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
      .selectFrom('rollout_targets')
      .select(['id', 'state', 'command_id'])
      .where('task_id', '=', taskId)
      .where('device_id', '=', deviceId)
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

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
