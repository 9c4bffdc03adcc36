import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Panels in the first wave, then in each further wave. */
export interface WaveSizes {
  first: number;
  step: number;
}

/** Waves up to which a staged task's rows take their wave from a CASE over device ids (more: numbered). */
export const MAX_WAVE_CUTS = 64;

/**
 * The sizes of the waves of `eligible` panels: `first`, then `step` each, the last what remains
 * (one wave of them all when the task is not staged).
 */
export function waveSizesOf(eligible: number, staged: boolean, sized: WaveSizes): number[] {
  const sizes: number[] = [];
  for (let placed = 0; placed < eligible;) {
    const size = Math.min(eligible - placed, !staged ? eligible : sizes.length ? sized.step : sized.first);
    sizes.push(size);
    placed += size;
  }
  return sizes;
}

/** Where the panels of a staged task come from, when their members can be read without the devices rows. */
export type MemberSource = { ids: number[] } | { labelId: number };

/**
 * A staged task's waves guessed before its rows are written (SQLite, issue 24): the task's members
 * in device id order as if none were skipped, read from the chosen ids or from one listed label's
 * primary key (no devices row, no skip rule: a few milliseconds for 100,000 panels), cut into the
 * waves those members would make. Returns the device id that ends each wave but the last and the
 * number of members, or undefined when there would be more than MAX_WAVE_CUTS waves. The guess is
 * exact when every member got a row and none was skipped (and, for waves in percent, close when
 * the skipped panels are spread evenly); otherwise `settleWaves` corrects it after the insert.
 */
export async function guessCuts(
  trx: Kysely<Database>,
  source: MemberSource,
  waves: WaveSizes | ((eligible: number) => WaveSizes),
): Promise<{ cuts: number[]; members: number } | undefined> {
  const ids = 'ids' in source ? [...new Set(source.ids)].sort((a, b) => a - b) : undefined;
  let members = ids?.length ?? 0;
  if (!ids) {
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM label_devices WHERE label_id = ${(source as { labelId: number }).labelId}`.execute(
      trx,
    );
    members = Number(rows[0]?.n ?? 0);
  }
  const sized = typeof waves === 'function' ? waves(members) : waves;
  const ranks: number[] = [];
  for (let end = sized.first; end < members && ranks.length <= MAX_WAVE_CUTS; end += sized.step)
    ranks.push(end);
  if (ranks.length > MAX_WAVE_CUTS) return undefined;
  if (ids) return { cuts: ranks.map((rank) => ids[rank - 1]!), members };
  // Each cut read past the one before by the label's primary key (label_id, device_id): one pass in all.
  const cuts: number[] = [];
  let after = -1;
  let before = 0;
  for (const rank of ranks) {
    const { rows } = await sql<{ device_id: number }>`SELECT device_id FROM label_devices
      WHERE label_id = ${(source as { labelId: number }).labelId} AND device_id > ${after}
      ORDER BY device_id LIMIT 1 OFFSET ${rank - before - 1}`.execute(trx);
    after = Number(rows[0]!.device_id);
    before = rank;
    cuts.push(after);
  }
  return { cuts, members };
}

/** The wave of rows by the device ids that end each wave but the last (wave numbers as literals: integers on PostgreSQL too). */
export const waveByCuts = (column: string, cuts: number[]) =>
  cuts.length
    ? sql<number>`CASE ${sql.join(
        cuts.map((id, i) => sql`WHEN ${sql.ref(column)} <= ${id} THEN ${sql.lit(i)}`),
        sql` `,
      )} ELSE ${sql.lit(cuts.length)} END`
    : sql<number>`0`;

/**
 * After a task's rows were written with guessed waves (`guessCuts`): checks them against the waves
 * the panels that passed the skip rules make (`sizes`, in device id order), by one grouped read
 * of the task's index, and where a wave's end moved, finds the true ends inside the guessed waves
 * and moves the rows between (one UPDATE of the misplaced rows). Inside the task's transaction.
 * Returns the number of rows moved.
 */
export async function settleWaves(trx: Kysely<Database>, taskId: number, sizes: number[]): Promise<number> {
  const { rows } = await sql<{ wave: number; n: number }>`SELECT wave, count(*) AS n FROM rollout_targets
    WHERE task_id = ${taskId} AND state = 'queued' GROUP BY wave ORDER BY wave`.execute(trx);
  const guessed = rows.map((r) => ({ wave: Number(r.wave), n: Number(r.n) }));
  if (guessed.length === sizes.length && guessed.every((g, i) => g.wave === i && g.n === sizes[i])) return 0;
  const ends: number[] = [];
  let rank = 0;
  for (const size of sizes.slice(0, -1)) {
    rank += size;
    // The guessed wave that holds this rank, and the rank's place in it (by device id).
    let before = 0;
    let at = 0;
    while (before + guessed[at]!.n < rank) before += guessed[at++]!.n;
    const { rows: found } = await sql<{ device_id: number }>`SELECT device_id FROM rollout_targets
      WHERE task_id = ${taskId} AND state = 'queued' AND wave = ${guessed[at]!.wave}
      ORDER BY device_id LIMIT 1 OFFSET ${rank - before - 1}`.execute(trx);
    ends.push(Number(found[0]!.device_id));
  }
  const wave = waveByCuts('device_id', ends);
  const moved = await sql`UPDATE rollout_targets SET wave = ${wave}
    WHERE task_id = ${taskId} AND state = 'queued' AND wave <> ${wave}`.execute(trx);
  return Number(moved.numAffectedRows ?? 0);
}
