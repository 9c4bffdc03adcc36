import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { TargetState } from '@panelfleet/contract';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

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

/** A row in a step that has not moved for a while: its panel is asked, or the row times out. */
export interface StalledTarget {
  targetId: number;
  deviceKey: string;
  state: TargetState;
  commandId: string;
  askedAt: number | null;
}

/** Steps of a panel between its command and its result. */
const OPEN_STEPS: TargetState[] = ['sent', 'downloading', 'verifying', 'installing'];

/** The order of a panel's steps: an acknowledgement only moves a panel forward. */
const BEFORE: Record<'downloading' | 'verifying' | 'installing' | 'final', TargetState[]> = {
  downloading: ['sent'],
  verifying: ['sent', 'downloading'],
  installing: ['sent', 'downloading', 'verifying'],
  final: ['sent', 'downloading', 'verifying', 'installing'],
};

/** The per-panel rows of rollout tasks through their steps: dispatch, acknowledgements, cancel. */
export class RolloutTargets {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

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
   * A panel's acknowledgements move its row forward (never back, never out of a final state,
   * except that a final result arriving after its row timed out is the panel's word and replaces
   * `timedOut`): one statement per new state and reason. A moved row is no longer asked.
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
    const movable = (eb: ExpressionBuilder<Database, 'rollout_targets'>) =>
      from === BEFORE.final
        ? eb.or([
            eb('state', 'in', from),
            eb.and([eb('state', '=', 'failed'), eb('reason', '=', 'timedOut')]),
          ])
        : eb('state', 'in', from);
    let changed = 0;
    for (const part of chunk(commandIds, 500)) {
      const result = await this.db
        .updateTable('rollout_targets')
        .set({ state: to, reason, updated_at: now, asked_at: null })
        .where('command_id', 'in', part)
        .where(movable)
        .executeTakeFirst();
      changed += Number(result.numUpdatedRows);
    }
    return changed;
  }

  /**
   * Rows whose panel answered about their command without moving them (a download still running
   * answers the question with its `received`): no longer asked, and their time starts again.
   */
  async heard(commandIds: string[], now: number) {
    for (const part of chunk(commandIds, 500))
      await this.db
        .updateTable('rollout_targets')
        .set({ asked_at: null, updated_at: now })
        .where('command_id', 'in', part)
        .where('asked_at', 'is not', null)
        .where('state', 'in', OPEN_STEPS)
        .execute();
  }

  /** Rows of the task in a step unchanged since `movedBefore`, asked or not, in id order after `afterId`. */
  async stalled(
    taskId: number,
    movedBefore: number,
    afterId: number,
    limit: number,
  ): Promise<StalledTarget[]> {
    const rows = await this.db
      .selectFrom('rollout_targets')
      .innerJoin('devices', 'devices.id', 'rollout_targets.device_id')
      .select([
        'rollout_targets.id',
        'rollout_targets.state',
        'rollout_targets.command_id',
        'rollout_targets.asked_at',
        'devices.device_key',
      ])
      .where('rollout_targets.task_id', '=', taskId)
      .where('rollout_targets.state', 'in', OPEN_STEPS)
      .where('rollout_targets.updated_at', '<=', movedBefore)
      .where('rollout_targets.id', '>', afterId)
      .orderBy('rollout_targets.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      targetId: r.id,
      deviceKey: r.device_key,
      state: r.state as TargetState,
      commandId: r.command_id!,
      askedAt: r.asked_at,
    }));
  }

  /** Marks rows asked now, unless they moved or were asked meanwhile; the ids it marked. */
  async ask(targetIds: number[], movedBefore: number, now: number): Promise<number[]> {
    if (!targetIds.length) return [];
    const rows = await this.db
      .updateTable('rollout_targets')
      .set({ asked_at: now })
      .where('id', 'in', targetIds)
      .where('state', 'in', OPEN_STEPS)
      .where('asked_at', 'is', null)
      .where('updated_at', '<=', movedBefore)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Rows asked before `askedBefore` whose panel left before answering: asked again when it is back. */
  async unask(targetIds: number[], askedBefore: number) {
    if (!targetIds.length) return;
    await this.db
      .updateTable('rollout_targets')
      .set({ asked_at: null })
      .where('id', 'in', targetIds)
      .where('asked_at', '<=', askedBefore)
      .execute();
  }

  /** Rows asked before `askedBefore` and still unanswered fail `timedOut`; their commands' ids. */
  async timeOut(targetIds: number[], askedBefore: number, now: number): Promise<string[]> {
    if (!targetIds.length) return [];
    const rows = await this.db
      .updateTable('rollout_targets')
      .set({ state: 'failed', reason: 'timedOut', updated_at: now, asked_at: null })
      .where('id', 'in', targetIds)
      .where('state', 'in', OPEN_STEPS)
      .where('asked_at', '<=', askedBefore)
      .returning('command_id')
      .execute();
    return rows.map((r) => r.command_id!);
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
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
