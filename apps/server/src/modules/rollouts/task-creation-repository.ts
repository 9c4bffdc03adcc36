import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import { Refusal } from '../../refusal.js';
import { labelMembers, type LabelMembership } from '../label-membership/repository.js';
import {
  guessCuts,
  MAX_WAVE_CUTS,
  settleWaves,
  waveByCuts,
  waveSizesOf,
  type MemberSource,
  type WaveSizes,
} from './wave-cut-repository.js';

export type { WaveSizes } from './wave-cut-repository.js';

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
  /** While it runs, panels that start to match its labels are added (hawkBit's dynamic rollout; rollouts/keep-adding.ts). */
  keepAdding?: boolean;
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
  /**
   * What the task sends where (file and labels, revision and panels). While a task of the same
   * kind, payload and `sameAs` is open, making another is refused (`sameRefusal`, with the open
   * task's id as `task`); the database's unique index decides, so concurrent requests and
   * instances too.
   */
  sameAs?: { key: string; refusal: string };
}

/** Device ids per bucket when a staged task on SQLite finds where its waves end. */
const ID_BUCKET = 128;

/** Makes a task with its per-panel rows and waves (RolloutRepository.createTask). */
export class TaskCreator {
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
  private targetsOf(task: NewTask, members: LabelMembership | undefined, ids?: { from: number; to: number }) {
    const org = ids
      ? sql`+d.org_id = ${task.orgId} AND d.id >= ${ids.from} AND d.id < ${ids.to}`
      : sql`d.org_id = ${task.orgId}`;
    if (task.deviceIds) return sql`FROM devices d WHERE ${org} AND d.id IN (${sql.join(task.deviceIds)})`;
    return sql`FROM devices d WHERE ${org} AND ${members!.within('d', task.labelIds)}`;
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
    const sameKey = task.sameAs ? crypto.createHash('sha256').update(task.sameAs.key).digest('hex') : null;
    try {
      return await this.insertTask(task, waves, sameKey);
    } catch (error) {
      if (!task.sameAs || sameKey === null || !isUniqueViolation(error)) throw error;
      // The open twin, named in the refusal (read after this transaction ended; inside an outer
      // one, PostgreSQL has aborted it, so the refusal goes without the id).
      const open = this.db.isTransaction
        ? undefined
        : await this.db
            .selectFrom('rollout_tasks')
            .select('id')
            .where('org_id', '=', task.orgId)
            .where('kind', '=', task.kind)
            .where('payload_id', '=', task.payloadId)
            .where('same_key', '=', sameKey)
            .where('state', 'in', ['scheduled', 'running', 'paused'])
            .executeTakeFirst();
      throw new Refusal(task.sameAs.refusal, 'conflict', { task: open?.id ?? '' });
    }
  }

  private async insertTask(
    task: NewTask,
    waves: WaveSizes | ((eligible: number) => WaveSizes),
    sameKey: string | null,
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
          same_key: sameKey,
          keep_adding: task.keepAdding && !task.deviceIds ? 1 : 0,
          label_ids: task.deviceIds ? null : JSON.stringify(task.labelIds),
          keep_rules: task.keepAdding && !task.deviceIds ? JSON.stringify(task.skip) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const reason = this.reasonOf(task.skip);
      const members = task.deviceIds
        ? undefined
        : await labelMembers(trx, task.orgId, task.labelIds, task.now);
      // One wave needs no numbering: the rows stream straight from the labels into the task.
      const staged = task.waves.mode !== 'none';
      let sized = typeof waves === 'function' ? undefined : waves;
      // Staged on SQLite, whose write transaction (held since the task row) keeps the panels from
      // changing under it: the eligible panels counted in buckets of ids (one pass, a few hundred
      // rows back) give their number (waves in percent) and the bucket of each wave's last panel,
      // found then in its bucket alone; the rows stream in as a one-wave task's do, the wave a CASE
      // over those ids, without a numbering window that sorts every row.
      let cuts: number[] | undefined;
      // Staged on SQLite to chosen panels or one listed label: the waves guessed from the members
      // alone (no second pass over the devices rows and skip rules), checked and corrected after
      // the insert (wave-cut-repository.ts).
      const guessFrom: MemberSource | undefined = task.deviceIds
        ? { ids: task.deviceIds }
        : task.labelIds.length === 1 && members!.isListed(task.labelIds[0]!)
          ? { labelId: task.labelIds[0]! }
          : undefined;
      const guessed =
        staged && this.dialect === 'sqlite' && guessFrom ? await guessCuts(trx, guessFrom, waves) : undefined;
      if (guessed) cuts = guessed.cuts;
      else if (staged && this.dialect === 'sqlite') {
        const eligibleOf = sql`${this.targetsOf(task, members)} AND ${reason} = ''`;
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
            const inBucket = this.targetsOf(task, members, { from, to: from + ID_BUCKET });
            const { rows } = await sql<{ id: number }>`SELECT d.id ${inBucket} AND ${reason} = ''
              ORDER BY d.id LIMIT 1 OFFSET ${rank - before - 1}`.execute(trx);
            cuts.push(Number(rows[0]!.id));
          }
        }
      }
      if (!sized && !guessed) {
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*) AS n ${this.targetsOf(task, members)} AND ${reason} = ''`.execute(trx);
        sized = (waves as (eligible: number) => WaveSizes)(Number(rows[0]?.n ?? 0));
      }
      const numbered = staged && !cuts;
      const source = numbered
        ? sql`(SELECT d.id, d.ota_version, ${reason} AS reason,
            row_number() OVER (PARTITION BY CASE WHEN ${reason} = '' THEN 0 ELSE 1 END ORDER BY d.id) AS rn
            ${this.targetsOf(task, members)}) s`
        : // The fence (a no-op LIMIT/OFFSET) keeps the subquery from being merged into the INSERT, so
          // the skip rules run once per panel instead of once per column that reads their result.
          sql`(SELECT d.id, d.ota_version, ${reason} AS reason ${this.targetsOf(task, members)}
            ${this.dialect === 'sqlite' ? sql`LIMIT -1 OFFSET 0` : sql`OFFSET 0`}) s`;
      const wave = cuts
        ? sql`CASE WHEN s.reason <> '' THEN -1 ELSE ${waveByCuts('s.id', cuts)} END`
        : numbered
          ? sql`CASE WHEN s.reason <> '' THEN -1 WHEN s.rn <= ${sized!.first} THEN 0
            ELSE 1 + CAST((s.rn - ${sized!.first} - 1) / ${sized!.step} AS INTEGER) END`
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
      sized ??= typeof waves === 'function' ? waves(eligible) : waves;
      const sizes = waveSizesOf(eligible, staged, sized);
      // Every member got a row and none was skipped: the guess was made from these very panels.
      if (guessed && (skipped > 0 || total !== guessed.members)) await settleWaves(trx, id, sizes);
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
   * Keep adding (hawkBit's dynamic rollout): panels of the task's labels that have no row yet,
   * listed or matching a dynamic label's filter now, join the task's last wave (so the health gate
   * of the waves before still holds them back), or are skipped by the rules the task was made
   * with. One INSERT ... SELECT ... WHERE NOT EXISTS; the number of panels added.
   */
  async addMatching(
    task: {
      id: number;
      org_id: number;
      label_ids: string | null;
      keep_rules: string | null;
      wave_count: number;
    },
    now: number,
  ): Promise<number> {
    if (!task.label_ids) return 0;
    const labelIds = JSON.parse(task.label_ids) as number[];
    const rules = task.keep_rules ? (JSON.parse(task.keep_rules) as SkipRule[]) : [];
    const wave = Math.max(0, task.wave_count - 1);
    const within = <T>(work: (trx: Kysely<Database>) => Promise<T>) =>
      this.db.isTransaction ? work(this.db) : this.db.transaction().execute(work);
    return within(async (trx) => {
      const members = await labelMembers(trx, task.org_id, labelIds, now);
      const inserted =
        await sql`INSERT INTO rollout_targets (task_id, org_id, device_id, wave, state, reason, from_version, created_at, updated_at)
        SELECT ${task.id}, ${task.org_id}, s.id, CASE WHEN s.reason = '' THEN ${wave} ELSE -1 END,
          CASE WHEN s.reason = '' THEN 'queued' ELSE 'skipped' END, s.reason, s.ota_version, ${now}, ${now}
        FROM (SELECT d.id, d.ota_version, ${this.reasonOf(rules)} AS reason FROM devices d
          WHERE d.org_id = ${task.org_id} AND ${members.within('d', labelIds)}
          AND NOT EXISTS (SELECT 1 FROM rollout_targets t WHERE t.device_id = d.id AND t.task_id = ${task.id})) s`.execute(
          trx,
        );
      const added = Number(inserted.numAffectedRows ?? 0);
      if (!added) return 0;
      await trx
        .updateTable('rollout_tasks')
        .set((eb) => ({ total: eb('total', '+', added), updated_at: now }))
        .where('id', '=', task.id)
        .execute();
      const size = sql<number>`(SELECT count(*) FROM rollout_targets t WHERE t.task_id = ${task.id} AND t.wave = ${wave})`;
      const updated = await trx
        .updateTable('rollout_waves')
        .set({ size })
        .where('task_id', '=', task.id)
        .where('wave', '=', wave)
        .executeTakeFirst();
      if (!Number(updated.numUpdatedRows))
        await sql`INSERT INTO rollout_waves (task_id, wave, size, started_at) SELECT ${task.id}, ${wave}, ${size}, ${now}`.execute(
          trx,
        );
      return added;
    });
  }
}
