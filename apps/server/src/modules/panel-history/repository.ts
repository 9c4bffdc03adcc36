import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ALL_HISTORY_GROUPS, ROLLED_UP_GROUPS } from '../../gateway/history-repository.js';

const HOUR_MS = 3_600_000;

/** PostgreSQL answers avg() as numeric text. */
const num = (value: number | string | null) => (value === null ? null : Number(value));

export interface RawHistoryRow {
  grp: string;
  at: number;
  n1: number | null;
  n2: number | null;
  n3: number | null;
  txt: string | null;
}

export interface HourlyHistoryRow {
  grp: string;
  hour: number;
  n1: number | null;
  n1_min: number | null;
  n1_max: number | null;
  n2: number | null;
  n3: number | null;
  txt: string | null;
}

/**
 * A panel's history rows (migrations 043, 046), always within the caller's organisation. Each
 * read names the groups it wants: `(device_id, grp, at)` carries the values, so a range is read
 * from that index alone.
 */
export class PanelHistoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Raw rows of one panel in [from, to), of the given groups, in time order. */
  raw(orgId: number, deviceId: number, from: number, to: number, groups: readonly string[]) {
    return this.db
      .selectFrom('panel_history')
      .select(['grp', 'at', 'n1', 'n2', 'n3', 'txt'])
      .where('device_id', '=', deviceId)
      .where('org_id', '=', orgId)
      .where('at', '>=', from)
      .where('at', '<', to)
      .where('grp', 'in', groups)
      .orderBy('at')
      .execute() as Promise<RawHistoryRow[]>;
  }

  /** Raw rows of one panel in [from, to) of the given groups, averaged per hour as the roll-up would. */
  async rawPerHour(orgId: number, deviceId: number, from: number, to: number, groups: readonly string[]) {
    const hour = sql<number>`(at - (at % ${sql.lit(HOUR_MS)}))`;
    const rows = await this.db
      .selectFrom('panel_history')
      .select((eb) => [
        'grp',
        hour.as('hour'),
        eb.fn.avg<number>('n1').as('n1'),
        eb.fn.min<number>('n1').as('n1_min'),
        eb.fn.max<number>('n1').as('n1_max'),
        eb.fn.avg<number>('n2').as('n2'),
        eb.fn.avg<number>('n3').as('n3'),
        eb.fn.max<string>('txt').as('txt'),
      ])
      .where('device_id', '=', deviceId)
      .where('org_id', '=', orgId)
      .where('at', '>=', from)
      .where('at', '<', to)
      .where('grp', 'in', groups)
      .groupBy(['grp', hour])
      .orderBy(hour)
      .execute();
    return rows.map((r) => ({
      ...r,
      hour: Number(r.hour),
      n1: num(r.n1),
      n1_min: num(r.n1_min),
      n1_max: num(r.n1_max),
      n2: num(r.n2),
      n3: num(r.n3),
    })) as HourlyHistoryRow[];
  }

  /** The last presence change of one panel before `at`. */
  async presenceBefore(orgId: number, deviceId: number, at: number): Promise<boolean | null> {
    const row = await this.db
      .selectFrom('panel_history')
      .select('n1')
      .where('device_id', '=', deviceId)
      .where('org_id', '=', orgId)
      .where('grp', '=', 'presence')
      .where('at', '<', at)
      .orderBy('at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? Number(row.n1) === 1 : null;
  }

  /** Hourly rows of one panel in [from, to). */
  hourly(orgId: number, deviceId: number, from: number, to: number) {
    return this.db
      .selectFrom('panel_history_hourly')
      .select(['grp', 'hour', 'n1', 'n1_min', 'n1_max', 'n2', 'n3', 'txt'])
      .where('device_id', '=', deviceId)
      .where('org_id', '=', orgId)
      .where('hour', '>=', from - (from % HOUR_MS))
      .where('hour', '<', to)
      .orderBy('hour')
      .execute() as Promise<HourlyHistoryRow[]>;
  }

  /** The commands sent to one panel in [from, to), newest first (at most `limit`). */
  commands(orgId: number, deviceId: number, from: number, to: number, limit: number) {
    return this.db
      .selectFrom('commands')
      .select(['id', 'order_code', 'status', 'created_at'])
      .where('org_id', '=', orgId)
      .where('device_id', '=', deviceId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * The screenshots of one panel stored in [from, to), oldest first (at most `limit`), with the
   * name of the user who asked for each.
   */
  screenshots(orgId: number, deviceId: number, from: number, to: number, limit: number) {
    return this.db
      .selectFrom('screenshots as s')
      .leftJoin('users as u', 'u.id', 's.requested_by')
      .select(['s.id', 's.taken_at', 'u.user_name'])
      .where('s.org_id', '=', orgId)
      .where('s.device_id', '=', deviceId)
      .where('s.status', '=', 'stored')
      .where('s.taken_at', '>=', from)
      .where('s.taken_at', '<', to)
      .orderBy('s.taken_at')
      .orderBy('s.id')
      .limit(limit)
      .execute();
  }

  /** The rollouts one panel was a target of, created in [from, to), newest first. */
  rollouts(orgId: number, deviceId: number, from: number, to: number, limit: number) {
    return this.db
      .selectFrom('rollout_targets as t')
      .innerJoin('rollout_tasks as k', 'k.id', 't.task_id')
      .select(['k.id as task_id', 'k.kind', 'k.payload_label', 't.state', 't.created_at'])
      .where('t.org_id', '=', orgId)
      .where('t.device_id', '=', deviceId)
      .where('t.created_at', '>=', from)
      .where('t.created_at', '<', to)
      .orderBy('t.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Folds the numeric groups' raw rows older than `before` (whole hours) into hourly rows and
   * deletes them, in one transaction: every organisation at once (a job, not a caller's request),
   * panel by panel through `(device_id, grp, at)`.
   * Returns how many raw rows were folded.
   */
  async rollUp(before: number): Promise<number> {
    const cutoff = before - (before % HOUR_MS);
    const groups = [...ROLLED_UP_GROUPS];
    return this.db.transaction().execute(async (trx) => {
      const hour = sql<number>`(at - (at % ${sql.lit(HOUR_MS)}))`;
      // An hour already folded (a run before, a late row) is merged: weighted by the samples.
      await sql`
        INSERT INTO panel_history_hourly (org_id, device_id, grp, hour, samples, n1, n1_min, n1_max, n2, n3, txt)
        SELECT org_id, device_id, grp, ${hour}, count(*), avg(n1), min(n1), max(n1), avg(n2), avg(n3), max(txt)
        FROM panel_history
        WHERE device_id IN (SELECT id FROM devices) AND at < ${cutoff} AND grp IN (${sql.join(groups)})
        GROUP BY org_id, device_id, grp, ${hour}
        ON CONFLICT (device_id, hour, grp) DO UPDATE SET
          n1 = (panel_history_hourly.n1 * panel_history_hourly.samples + excluded.n1 * excluded.samples) / (panel_history_hourly.samples + excluded.samples),
          n2 = (panel_history_hourly.n2 * panel_history_hourly.samples + excluded.n2 * excluded.samples) / (panel_history_hourly.samples + excluded.samples),
          n3 = (panel_history_hourly.n3 * panel_history_hourly.samples + excluded.n3 * excluded.samples) / (panel_history_hourly.samples + excluded.samples),
          n1_min = CASE WHEN excluded.n1_min < panel_history_hourly.n1_min THEN excluded.n1_min ELSE panel_history_hourly.n1_min END,
          n1_max = CASE WHEN excluded.n1_max > panel_history_hourly.n1_max THEN excluded.n1_max ELSE panel_history_hourly.n1_max END,
          txt = excluded.txt,
          samples = panel_history_hourly.samples + excluded.samples
      `.execute(trx);
      const deleted = await trx
        .deleteFrom('panel_history')
        .where('device_id', 'in', (eb) => eb.selectFrom('devices').select('id'))
        .where('at', '<', cutoff)
        .where('grp', 'in', groups)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
  }

  /**
   * Deletes every history row older than `before` (the retention); how many went. Old raw rows
   * are found panel by panel and group by group (`(device_id, grp, at)`).
   */
  async deleteBefore(before: number): Promise<number> {
    const raw = await this.db
      .deleteFrom('panel_history')
      .where('device_id', 'in', (eb) => eb.selectFrom('devices').select('id'))
      .where('grp', 'in', [...ALL_HISTORY_GROUPS])
      .where('at', '<', before)
      .executeTakeFirst();
    const hourly = await this.db
      .deleteFrom('panel_history_hourly')
      .where('hour', '<', before)
      .executeTakeFirst();
    return Number(raw.numDeletedRows) + Number(hourly.numDeletedRows);
  }
}
