import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FleetHistoryTable } from '../../db/schema-dashboards.js';

const DAY_MS = 86_400_000;

/** The inputs and result of locating one panel (device side: by device id, not scoped). */
export interface LocationRow {
  id: number;
  latitude: number | null;
  longitude: number | null;
  public_ip: string;
  geo_source: string;
  geo_latitude: number | null;
  geo_longitude: number | null;
  geo_country: string;
  geo_province: string;
}

export type LocationUpdate = Pick<
  LocationRow,
  'id' | 'geo_source' | 'geo_latitude' | 'geo_longitude' | 'geo_country' | 'geo_province'
>;

/** Per company, what one scan of its devices found (history job). */
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

export interface HistorySum {
  at: number;
  device_total: number;
  online_devices: number;
  user_total: number;
  online_users: number;
  screen_on_ms: number;
  ota_upgrades: number;
}

/** Two rows of one company in one slot: usage and installs add up, the rest keeps its peak. */
function mergeSlot(a: HistorySum, b: HistorySum): HistorySum {
  return {
    at: a.at,
    device_total: Math.max(a.device_total, b.device_total),
    online_devices: Math.max(a.online_devices, b.online_devices),
    user_total: Math.max(a.user_total, b.user_total),
    online_users: Math.max(a.online_users, b.online_users),
    screen_on_ms: a.screen_on_ms + b.screen_on_ms,
    ota_upgrades: a.ota_upgrades + b.ota_upgrades,
  };
}

/**
 * All SQL of the dashboards, maps and their history. Reads for a caller take the companies of its
 * scope (derived from the session); the locator's and the history job's methods work on every
 * company and say so in their names (`...ForPanels`, `...AllCompanies`).
 */
export class DashboardRepository {
  constructor(private readonly db: Kysely<Database>) {}

  // ---- for a caller's scope ----

  /**
   * Every small count of a dashboard in one statement (one round trip): panels per company, the
   * facets, users, users with a live session, succeeded OTA installs per history row since
   * `upgradesFrom`. Rows are (k, v, n): what, which, how many.
   */
  async figures(orgIds: number[], seenAfter: number, startedAfter: number, upgradesFrom: number) {
    const out = {
      totals: new Map<number, number>(),
      facets: [] as Array<{ facet: string; value: string; total: number }>,
      users: 0,
      onlineUsers: 0,
      upgrades: [] as Array<{ at: number; total: number }>,
    };
    if (!orgIds.length) return out;
    const orgs = sql.join(orgIds.map((id) => sql.lit(id)));
    const { rows } = await sql<{ k: string; v: string; n: number | string }>`
      SELECT 'total' AS k, CAST(org_id AS varchar(20)) AS v, total AS n FROM device_order_state WHERE org_id IN (${orgs})
      UNION ALL
      SELECT facet, value, sum(total) FROM device_facets WHERE org_id IN (${orgs}) AND total > 0 GROUP BY facet, value
      UNION ALL
      SELECT 'users', '', count(*) FROM users WHERE org_id IN (${orgs})
      UNION ALL
      SELECT 'online', '', count(DISTINCT sessions.user_id) FROM sessions JOIN users ON users.id = sessions.user_id
        WHERE users.org_id IN (${orgs}) AND users.enabled = 1 AND sessions.last_seen_at > ${seenAfter}
          AND sessions.created_at > ${startedAfter}
      UNION ALL
      SELECT 'upgrades', CAST(at AS varchar(20)), sum(ota_upgrades) FROM fleet_history
        WHERE org_id IN (${orgs}) AND at >= ${upgradesFrom} AND ota_upgrades > 0 GROUP BY at`.execute(
      this.db,
    );
    for (const row of rows) {
      const n = Number(row.n);
      if (row.k === 'total') out.totals.set(Number(row.v), n);
      else if (row.k === 'users') out.users = n;
      else if (row.k === 'online') out.onlineUsers = n;
      else if (row.k === 'upgrades') out.upgrades.push({ at: Number(row.v), total: n });
      else out.facets.push({ facet: row.k, value: row.v, total: n });
    }
    return out;
  }

  async deviceTotals(orgIds: number[]): Promise<Map<number, number>> {
    if (!orgIds.length) return new Map();
    const rows = await this.db
      .selectFrom('device_order_state')
      .select(['org_id', 'total'])
      .where('org_id', 'in', orgIds)
      .execute();
    return new Map(rows.map((r) => [r.org_id, Number(r.total)]));
  }

  /** The latest hourly sample of each company (taken since `since`). */
  async latestSamples(orgIds: number[], since: number): Promise<HistoryRow[]> {
    if (!orgIds.length) return [];
    const rows = await this.db
      .selectFrom('fleet_history')
      .selectAll()
      .where('org_id', 'in', orgIds)
      .where('period', '=', 'hour')
      .where('at', '>=', since)
      .execute();
    const latest = new Map<number, HistoryRow>();
    for (const row of rows) {
      const seen = latest.get(row.org_id);
      if (!seen || row.at > seen.at) latest.set(row.org_id, row);
    }
    return [...latest.values()];
  }

  /**
   * Summed over the companies, per period start, within [from, to). Days are the rolled-up rows
   * and, for the days still kept by the hour, their hours: sums of usage and installs, peaks of the rest.
   */
  async history(orgIds: number[], period: 'hour' | 'day', from: number, to: number) {
    if (!orgIds.length) return [];
    const rows = await this.db
      .selectFrom('fleet_history')
      .select([
        'org_id',
        'period',
        'at',
        'device_total',
        'online_devices',
        'user_total',
        'online_users',
        'screen_on_ms',
        'ota_upgrades',
      ])
      .where('org_id', 'in', orgIds)
      .where('period', 'in', period === 'hour' ? ['hour'] : ['hour', 'day'])
      .where('at', '>=', from)
      .where('at', '<', to)
      .execute();
    // First per company and slot (peaks within the slot), then summed over companies.
    const slot = (at: number) => (period === 'hour' ? at : at - (at % DAY_MS));
    const perOrg = new Map<string, HistorySum>();
    for (const r of rows) {
      const key = `${r.org_id}:${slot(Number(r.at))}`;
      const seen = perOrg.get(key);
      const next: HistorySum = {
        at: slot(Number(r.at)),
        device_total: Number(r.device_total),
        online_devices: Number(r.online_devices),
        user_total: Number(r.user_total),
        online_users: Number(r.online_users),
        screen_on_ms: Number(r.screen_on_ms),
        ota_upgrades: Number(r.ota_upgrades),
      };
      perOrg.set(key, seen ? mergeSlot(seen, next) : next);
    }
    const out = new Map<number, HistorySum>();
    for (const part of perOrg.values()) {
      const seen = out.get(part.at);
      out.set(
        part.at,
        seen
          ? {
              at: part.at,
              device_total: seen.device_total + part.device_total,
              online_devices: seen.online_devices + part.online_devices,
              user_total: seen.user_total + part.user_total,
              online_users: seen.online_users + part.online_users,
              screen_on_ms: seen.screen_on_ms + part.screen_on_ms,
              ota_upgrades: seen.ota_upgrades + part.ota_upgrades,
            }
          : part,
      );
    }
    return [...out.values()].sort((a, b) => a.at - b.at);
  }

  /** Located panels of one company for its map, and how many are not located. */
  async mapDevices(orgId: number, limit: number) {
    const rows = await this.db
      .selectFrom('devices')
      .select(['id', 'name', 'device_key', 'geo_source', 'geo_latitude', 'geo_longitude'])
      .where('org_id', '=', orgId)
      .where('geo_source', 'in', ['gps', 'ip'])
      .orderBy('id')
      .limit(limit)
      .execute();
    const located = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .where('geo_source', 'in', ['gps', 'ip'])
      .executeTakeFirstOrThrow();
    return { rows, located: Number(located.n) };
  }

  // ---- the locator (device side) ----

  async locationInputsForPanels(ids: number[]): Promise<LocationRow[]> {
    if (!ids.length) return [];
    return this.db
      .selectFrom('devices')
      .select([
        'id',
        'latitude',
        'longitude',
        'public_ip',
        'geo_source',
        'geo_latitude',
        'geo_longitude',
        'geo_country',
        'geo_province',
      ])
      .where('id', 'in', ids)
      .execute();
  }

  async writeLocationsForPanels(updates: LocationUpdate[]): Promise<void> {
    if (!updates.length) return;
    await this.db.transaction().execute(async (trx) => {
      for (const { id, ...set } of updates)
        await trx.updateTable('devices').set(set).where('id', '=', id).execute();
    });
  }

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
   * last sample for totals and gauges (approximated by the largest).
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
          screen_on_ms = fleet_history.screen_on_ms + excluded.screen_on_ms,
          ota_upgrades = fleet_history.ota_upgrades + excluded.ota_upgrades`.execute(trx);
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
