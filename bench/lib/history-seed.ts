import { sql, type Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface HistorySeed {
  dialect: 'sqlite' | 'postgres';
  orgId: number;
  panels: number;
  /** Other panels' raw rows written in each minute of the raw window, between the target's. */
  fleetPerMinute: number;
  /** Other panels' hourly rows in each hour before the raw window. */
  fleetPerHour: number;
  now: number;
}

/** The numbers 0..count-1 as a row set `s(x)`, on either engine. */
const series = (dialect: HistorySeed['dialect'], count: number) =>
  dialect === 'postgres'
    ? sql`(SELECT generate_series(CAST(0 AS bigint), ${sql.lit(count - 1)}) AS x) s`
    : sql`(WITH RECURSIVE r(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM r WHERE x < ${sql.lit(count - 1)}) SELECT x FROM r) s`;

/**
 * The fleet's panels (`panels` rows, one statement) and their ids: contiguous, the target the last.
 */
export async function seedPanels(db: Kysely<Database>, seed: HistorySeed) {
  const key =
    seed.dialect === 'postgres'
      ? sql`'HIST-' || lpad(s.x::text, 6, '0')`
      : sql`'HIST-' || substr('000000' || s.x, -6)`;
  await sql`
    INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at)
    SELECT ${sql.lit(seed.orgId)}, ${key}, 'History ' || s.x, 'x', ${sql.lit(seed.now - 31 * DAY)}
    FROM ${series(seed.dialect, seed.panels)}
  `.execute(db);
  const range = await db
    .selectFrom('devices')
    .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')])
    .where('device_key', 'like', 'HIST-%')
    .executeTakeFirstOrThrow();
  const first = Number(range.first);
  const last = Number(range.last);
  if (last - first + 1 !== seed.panels) throw new Error(`panel ids not contiguous: ${first}..${last}`);
  return { first, target: last };
}

/**
 * The history as the product holds it after the roll-up, written in time order as the panels
 * reported it, so that the target's rows lie among the fleet's on the table's pages:
 * - the 2-day raw window: every minute the target's telemetry (each report a change) and
 *   `fleetPerMinute` other panels' telemetry; the target's brightness every hour and a presence
 *   change every 6 hours;
 * - the 28 days before: each hour the target's telemetry and brightness hours and `fleetPerHour`
 *   other panels' telemetry hours.
 * Returns the rows written to each table.
 */
export async function seedHistory(
  db: Kysely<Database>,
  seed: HistorySeed,
  ids: { first: number; target: number },
) {
  const others = seed.panels - 1;
  const rawStart = seed.now - 2 * DAY;
  const chunkMinutes = 120;
  for (let m0 = 0; m0 < 2 * 24 * 60; m0 += chunkMinutes) {
    const k = seed.fleetPerMinute;
    // j = k is the target's row of minute m; the others' panels rotate through the fleet.
    await sql`
      INSERT INTO panel_history (org_id, device_id, grp, at, n1, n2, n3, txt)
      SELECT ${sql.lit(seed.orgId)},
        CASE WHEN j.x = ${sql.lit(k)} THEN ${sql.lit(ids.target)}
             ELSE ${sql.lit(ids.first)} + ((m.x * ${sql.lit(k)} + j.x) % ${sql.lit(others)}) END,
        'telemetry', ${sql.lit(rawStart)} + m.x * ${sql.lit(MINUTE)} + j.x,
        40 + (m.x % 50) / 10.0, 1000000000 + m.x * 1000, 4000000000, NULL
      FROM (SELECT x + ${sql.lit(m0)} AS x FROM ${series(seed.dialect, chunkMinutes)}) m
      CROSS JOIN (SELECT x FROM ${series(seed.dialect, k + 1)}) j
      ORDER BY m.x, j.x
    `.execute(db);
  }
  await sql`
    INSERT INTO panel_history (org_id, device_id, grp, at, n1, n2, n3, txt)
    SELECT ${sql.lit(seed.orgId)}, ${sql.lit(ids.target)}, 'brightness', ${sql.lit(rawStart)} + s.x * ${sql.lit(HOUR)} + 1,
      s.x % 100, CAST(NULL AS double precision), CAST(NULL AS double precision), CAST(NULL AS text)
    FROM ${series(seed.dialect, 48)}
    UNION ALL
    SELECT ${sql.lit(seed.orgId)}, ${sql.lit(ids.target)}, 'presence', ${sql.lit(rawStart)} + s.x * ${sql.lit(6 * HOUR)} + 2,
      (s.x + 1) % 2, CAST(NULL AS double precision), CAST(NULL AS double precision), 'connected'
    FROM ${series(seed.dialect, 8)}
  `.execute(db);
  const hourNow = seed.now - (seed.now % HOUR);
  const firstHour = hourNow - 2 * DAY - 28 * DAY;
  const chunkHours = 48;
  for (let h0 = 0; h0 < 28 * 24; h0 += chunkHours) {
    const k = seed.fleetPerHour;
    // j = k and k + 1 are the target's telemetry and brightness hours.
    await sql`
      INSERT INTO panel_history_hourly (org_id, device_id, grp, hour, samples, n1, n1_min, n1_max, n2, n3, txt)
      SELECT ${sql.lit(seed.orgId)},
        CASE WHEN j.x >= ${sql.lit(k)} THEN ${sql.lit(ids.target)}
             ELSE ${sql.lit(ids.first)} + ((h.x * ${sql.lit(k)} + j.x) % ${sql.lit(others)}) END,
        CASE WHEN j.x = ${sql.lit(k + 1)} THEN 'brightness' ELSE 'telemetry' END,
        ${sql.lit(firstHour)} + h.x * ${sql.lit(HOUR)},
        60, 45, 40, 50, 1000000000, 4000000000, NULL
      FROM (SELECT x + ${sql.lit(h0)} AS x FROM ${series(seed.dialect, chunkHours)}) h
      CROSS JOIN (SELECT x FROM ${series(seed.dialect, k + 2)}) j
      ORDER BY h.x, j.x
    `.execute(db);
  }
  return {
    raw: 2 * 24 * 60 * (seed.fleetPerMinute + 1) + 48 + 8,
    hourly: 28 * 24 * (seed.fleetPerHour + 2),
  };
}
