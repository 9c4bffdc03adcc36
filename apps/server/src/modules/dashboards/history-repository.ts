import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FleetHistoryTable } from '../../db/schema-dashboards.js';
import { DAY_MS } from './periods.js';

export interface DeviceScan {
  org_id: number;
  never_seen: number;
  seen_lt1: number;
  seen_1to3: number;
  seen_3to7: number;
  seen_7to30: number;
  seen_gt30: number;
  ram_used: number;
  ram_total: number;
  cpu_sum: number;
  cpu_count: number;
}

export type HistoryRow = FleetHistoryTable;

/**
 * The history job's SQL, over every company (it runs on one instance for all); the dashboards'
 * repository extends it with the reads of a caller's scope and the locator's.
 */
export class HistoryJobQueries {
  constructor(protected readonly db: Kysely<Database>) {}

  // ---- the history job (every company) ----

  async companiesAllCompanies(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('organisations')
      .select('id')
      .where('kind', '=', 'customer')
      .execute();
    return rows.map((r) => r.id);
  }

  async deviceTotalsAllCompanies(): Promise<Map<number, number>> {
    const rows = await this.db.selectFrom('device_order_state').select(['org_id', 'total']).execute();
    return new Map(rows.map((r) => [r.org_id, Number(r.total)]));
  }

  async userCountsAllCompanies(): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('users')
      .select(['org_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('org_id')
      .execute();
    return new Map(rows.map((r) => [r.org_id, Number(r.n)]));
  }

  async onlineUsersAllCompanies(seenAfter: number, startedAfter: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.org_id', sql<number>`count(DISTINCT sessions.user_id)`.as('n')])
      .where('users.enabled', '=', 1)
      .where('sessions.last_seen_at', '>', seenAfter)
      .where('sessions.created_at', '>', startedAfter)
      .groupBy('users.org_id')
      .execute();
    return new Map(rows.map((r) => [r.org_id, Number(r.n)]));
  }

  async maxDeviceIdAllCompanies(): Promise<number> {
    const row = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.max<number | null>('id').as('id'))
      .executeTakeFirstOrThrow();
    return Number(row.id ?? 0);
  }

  /** One step of the scan: devices with fromId < id <= toId, per company. */
  async scanAllCompanies(fromId: number, toId: number, now: number): Promise<DeviceScan[]> {
    const seen = (min: number, max: number | null) =>
      max === null
        ? sql<number>`sum(CASE WHEN last_seen_at <= ${now - min * DAY_MS} THEN 1 ELSE 0 END)`
        : sql<number>`sum(CASE WHEN last_seen_at <= ${now - min * DAY_MS} AND last_seen_at > ${now - max * DAY_MS} THEN 1 ELSE 0 END)`;
    const recent = now - 15 * 60_000;
    const rows = await this.db
      .selectFrom('devices')
      .select([
        'org_id',
        sql<number>`sum(CASE WHEN last_seen_at IS NULL THEN 1 ELSE 0 END)`.as('never_seen'),
        seen(0, 1).as('seen_lt1'),
        seen(1, 3).as('seen_1to3'),
        seen(3, 7).as('seen_3to7'),
        seen(7, 30).as('seen_7to30'),
        seen(30, null).as('seen_gt30'),
        sql<number>`sum(CASE WHEN last_seen_at > ${recent} AND ram_total > 0 THEN ram_used ELSE 0 END)`.as(
          'ram_used',
        ),
        sql<number>`sum(CASE WHEN last_seen_at > ${recent} AND ram_total > 0 THEN ram_total ELSE 0 END)`.as(
          'ram_total',
        ),
        sql<number>`sum(CASE WHEN last_seen_at > ${recent} THEN cpu_temperature ELSE 0 END)`.as('cpu_sum'),
        sql<number>`sum(CASE WHEN last_seen_at > ${recent} AND cpu_temperature IS NOT NULL THEN 1 ELSE 0 END)`.as(
          'cpu_count',
        ),
      ])
      .where('id', '>', fromId)
      .where('id', '<=', toId)
      .groupBy('org_id')
      .execute();
    return rows.map((r) => ({
      org_id: r.org_id,
      never_seen: Number(r.never_seen),
      seen_lt1: Number(r.seen_lt1),
      seen_1to3: Number(r.seen_1to3),
      seen_3to7: Number(r.seen_3to7),
      seen_7to30: Number(r.seen_7to30),
      seen_gt30: Number(r.seen_gt30),
      ram_used: Number(r.ram_used ?? 0),
      ram_total: Number(r.ram_total ?? 0),
      cpu_sum: Number(r.cpu_sum ?? 0),
      cpu_count: Number(r.cpu_count ?? 0),
    }));
  }

  async screenOnAllCompanies(from: number, to: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('screen_time')
      .select(['org_id', (eb) => eb.fn.sum<number>('screen_on_ms').as('ms')])
      .where('from_at', '>=', from)
      .where('from_at', '<', to)
      .groupBy('org_id')
      .execute();
    return new Map(rows.map((r) => [r.org_id, Number(r.ms)]));
  }

  /** Succeeded OTA commands by the time they settled, per company (the default upgrade source). */
  async otaCommandsSucceededAllCompanies(from: number, to: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('commands')
      .select(['org_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('order_code', '=', 'OTA')
      .where('status', '=', 'succeeded')
      .where('updated_at', '>=', from)
      .where('updated_at', '<', to)
      .groupBy('org_id')
      .execute();
    return new Map(rows.map((r) => [r.org_id, Number(r.n)]));
  }

  /** Writes an hour's sample: totals and gauges are replaced, online peaks keep the larger value. */
  async upsertHourlyAllCompanies(rows: HistoryRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) {
      await this.db
        .insertInto('fleet_history')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) =>
          oc.columns(['org_id', 'period', 'at']).doUpdateSet((eb) => ({
            device_total: eb.ref('excluded.device_total'),
            user_total: eb.ref('excluded.user_total'),
            online_devices: sql<number>`CASE WHEN excluded.online_devices > fleet_history.online_devices THEN excluded.online_devices ELSE fleet_history.online_devices END`,
            online_users: sql<number>`CASE WHEN excluded.online_users > fleet_history.online_users THEN excluded.online_users ELSE fleet_history.online_users END`,
            screen_on_ms: eb.ref('excluded.screen_on_ms'),
            ota_upgrades: eb.ref('excluded.ota_upgrades'),
            offline_lt1: eb.ref('excluded.offline_lt1'),
            offline_1to3: eb.ref('excluded.offline_1to3'),
            offline_3to7: eb.ref('excluded.offline_3to7'),
            offline_7to30: eb.ref('excluded.offline_7to30'),
            offline_gt30: eb.ref('excluded.offline_gt30'),
            never_seen: eb.ref('excluded.never_seen'),
            ram_used: eb.ref('excluded.ram_used'),
            ram_total: eb.ref('excluded.ram_total'),
            cpu_temperature: eb.ref('excluded.cpu_temperature'),
            sampled_at: eb.ref('excluded.sampled_at'),
          })),
        )
        .execute();
    }
  }

  /** Sets the usage and upgrades of an earlier hour (completed after its last sample). */
  async setHourTotalsAllCompanies(at: number, screenOn: Map<number, number>, upgrades: Map<number, number>) {
    const orgs = new Set([...screenOn.keys(), ...upgrades.keys()]);
    for (const org of orgs)
      await this.db
        .updateTable('fleet_history')
        .set({ screen_on_ms: screenOn.get(org) ?? 0, ota_upgrades: upgrades.get(org) ?? 0 })
        .where('org_id', '=', org)
        .where('period', '=', 'hour')
        .where('at', '=', at)
        .execute();
  }

  /**
   * Rolls the hourly rows of whole days before `before` (a day boundary) into one row per company
   * and day, in one transaction: sums for usage and upgrades, peaks for online counts, the day's
   * last sample for totals and gauges (approximated by the largest). A day row that is there
   * already was filled from the stored data (backfill.ts), whole: the larger figure is kept.
   */
  async rollUpAllCompanies(before: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const day = sql<number>`(at - (at % ${sql.lit(DAY_MS)}))`;
      await sql`INSERT INTO fleet_history (org_id, period, at, device_total, online_devices, user_total, online_users,
          screen_on_ms, ota_upgrades, offline_lt1, offline_1to3, offline_3to7, offline_7to30, offline_gt30, never_seen,
          ram_used, ram_total, cpu_temperature, sampled_at)
        SELECT org_id, 'day', ${day}, max(device_total), max(online_devices), max(user_total), max(online_users),
          sum(screen_on_ms), sum(ota_upgrades), max(offline_lt1), max(offline_1to3), max(offline_3to7),
          max(offline_7to30), max(offline_gt30), max(never_seen), max(ram_used), max(ram_total),
          avg(cpu_temperature), max(sampled_at)
        FROM fleet_history WHERE period = 'hour' AND at < ${before}
        GROUP BY org_id, ${day}
        ON CONFLICT (org_id, period, at) DO UPDATE SET
          screen_on_ms = CASE WHEN excluded.screen_on_ms > fleet_history.screen_on_ms
            THEN excluded.screen_on_ms ELSE fleet_history.screen_on_ms END,
          ota_upgrades = CASE WHEN excluded.ota_upgrades > fleet_history.ota_upgrades
            THEN excluded.ota_upgrades ELSE fleet_history.ota_upgrades END`.execute(trx);
      const removed = await trx
        .deleteFrom('fleet_history')
        .where('period', '=', 'hour')
        .where('at', '<', before)
        .executeTakeFirst();
      return Number(removed.numDeletedRows);
    });
  }

  async purgeAllCompanies(period: 'hour' | 'day', before: number): Promise<void> {
    await this.db.deleteFrom('fleet_history').where('period', '=', period).where('at', '<', before).execute();
  }
}
