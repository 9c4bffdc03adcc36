import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** One period of one company, with what the stored data say for it. */
export interface SlotTotal {
  org_id: number;
  at: number;
  total: number;
}

/**
 * The SQL that brings what is stored elsewhere into the dashboards' history, over every company
 * (history job: `...AllCompanies`): screen time reported late for past hours, OTA installs from
 * before the history began. Periods are hours (`period` 'hour') or days ('day'), in UTC.
 */
export class HistoryBackfillRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async position(source: 'screen_time' | 'ota'): Promise<number> {
    const row = await this.db
      .selectFrom('history_backfill')
      .select('position')
      .where('source', '=', source)
      .executeTakeFirst();
    return Number(row?.position ?? 0);
  }

  async setPosition(source: 'screen_time' | 'ota', position: number): Promise<void> {
    await this.db
      .insertInto('history_backfill')
      .values({ source, position })
      .onConflict((oc) => oc.column('source').doUpdateSet({ position }))
      .execute();
  }

  async maxScreenTimeId(): Promise<number> {
    const row = await this.db
      .selectFrom('screen_time')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  /**
   * The whole screen-on time of every period that a screen-time row with an id in (afterId,
   * throughId] falls in, from `from` on: the periods those rows touched, summed again over all
   * their rows (so a period is right however its rows arrived).
   */
  async screenOnOfTouchedAllCompanies(
    afterId: number,
    throughId: number,
    from: number,
    slotMs: number,
  ): Promise<SlotTotal[]> {
    const slot = sql.lit(slotMs);
    const { rows } = await sql<SlotTotal>`
      SELECT touched.org_id AS org_id, touched.at AS at, sum(t.screen_on_ms) AS total
      FROM (
        SELECT DISTINCT org_id, from_at - (from_at % ${slot}) AS at FROM screen_time
        WHERE id > ${afterId} AND id <= ${throughId} AND from_at >= ${from}
      ) touched
      JOIN screen_time t ON t.org_id = touched.org_id AND t.from_at >= touched.at AND t.from_at < touched.at + ${slot}
      GROUP BY touched.org_id, touched.at`.execute(this.db);
    return rows.map((r) => ({ org_id: Number(r.org_id), at: Number(r.at), total: Number(r.total) }));
  }

  /** Succeeded OTA commands per company and period, by the time they settled, in [from, to). */
  async otaSucceededPerSlotAllCompanies(from: number, to: number, slotMs: number): Promise<SlotTotal[]> {
    const slot = sql.lit(slotMs);
    const { rows } = await sql<SlotTotal>`
      SELECT org_id, updated_at - (updated_at % ${slot}) AS at, count(*) AS total FROM commands
      WHERE order_code = 'OTA' AND status = 'succeeded' AND updated_at >= ${from} AND updated_at < ${to}
      GROUP BY org_id, updated_at - (updated_at % ${slot})`.execute(this.db);
    return rows.map((r) => ({ org_id: Number(r.org_id), at: Number(r.at), total: Number(r.total) }));
  }

  /**
   * Sets a column of periods from stored data: a period without a row gets one that says only
   * that (counts zero, `sampled_at` 0: no sample, its panels and users unknown); a sampled row
   * keeps its samples.
   */
  async setColumnAllCompanies(
    column: 'screen_on_ms' | 'ota_upgrades',
    period: 'hour' | 'day',
    slots: SlotTotal[],
  ): Promise<void> {
    for (let i = 0; i < slots.length; i += 200) {
      await this.db
        .insertInto('fleet_history')
        .values(
          slots.slice(i, i + 200).map((s) => ({
            org_id: s.org_id,
            period,
            at: s.at,
            device_total: 0,
            online_devices: 0,
            user_total: 0,
            online_users: 0,
            screen_on_ms: column === 'screen_on_ms' ? s.total : 0,
            ota_upgrades: column === 'ota_upgrades' ? s.total : 0,
            offline_lt1: 0,
            offline_1to3: 0,
            offline_3to7: 0,
            offline_7to30: 0,
            offline_gt30: 0,
            never_seen: 0,
            ram_used: 0,
            ram_total: 0,
            cpu_temperature: null,
            sampled_at: 0,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['org_id', 'period', 'at'])
            .doUpdateSet((eb) => ({ [column]: eb.ref(`excluded.${column}`) })),
        )
        .execute();
    }
  }
}
