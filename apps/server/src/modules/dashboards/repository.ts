import { sql } from 'kysely';
import { HistoryJobQueries, type HistoryRow } from './history-repository.js';
import { DAY_MS } from './periods.js';

export type { DeviceScan, HistoryRow } from './history-repository.js';

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
export interface HistorySum {
  at: number;
  device_total: number;
  online_devices: number;
  user_total: number;
  online_users: number;
  screen_on_ms: number;
  ota_upgrades: number;
  /** Whether a sample was taken in the slot: without one, only usage and installs are known. */
  sampled: boolean;
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
    sampled: a.sampled || b.sampled,
  };
}

/**
 * All SQL of the dashboards, maps and their history. Reads for a caller take the companies of its
 * scope (derived from the session); the locator's and the history job's methods work on every
 * company and say so in their names (`...ForPanels`, `...AllCompanies`).
 */
export class DashboardRepository extends HistoryJobQueries {
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
      SELECT facet, value, sum(total) FROM (
        SELECT facet, value, total FROM device_facets WHERE org_id IN (${orgs})
        UNION ALL
        SELECT facet, value, delta FROM device_facet_changes WHERE org_id IN (${orgs})
      ) f GROUP BY facet, value HAVING sum(total) > 0
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
        'sampled_at',
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
        sampled: Number(r.sampled_at) > 0,
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
              sampled: seen.sampled || part.sampled,
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

  /**
   * Folds the facet changes PostgreSQL's triggers appended into the counts (migration 032), in one
   * statement that updates the counts in key order, so folds of two instances wait for each other
   * and never deadlock. Returns how many counts changed. PostgreSQL only (SQLite counts in place).
   */
  async foldFacetChangesAllCompanies(): Promise<number> {
    const result =
      await sql`WITH moved AS (DELETE FROM device_facet_changes RETURNING org_id, facet, value, delta)
      INSERT INTO device_facets AS f (org_id, facet, value, total)
      SELECT org_id, facet, value, sum(delta) FROM moved GROUP BY org_id, facet, value ORDER BY org_id, facet, value
      ON CONFLICT (org_id, facet, value) DO UPDATE SET total = f.total + excluded.total`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }
}
