import { sql, type Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.js';

/**
 * The plans of the history read's main statements for one panel and range, as the engine shows
 * them (PostgreSQL: run, with buffers; SQLite: the query plan), one text per statement.
 */
export async function historyPlans(
  db: Kysely<Database>,
  engine: 'sqlite' | 'postgres',
  q: { orgId: number; deviceId: number; from: number; to: number },
) {
  const statements = {
    'changes (text groups)': sql`SELECT grp, at, n1, n2, n3, txt FROM panel_history WHERE device_id = ${q.deviceId} AND org_id = ${q.orgId} AND at >= ${q.from} AND at < ${q.to} AND grp IN ('presence', 'identity', 'source', 'power', 'app') ORDER BY at`,
    'unfolded hours (numeric groups)': sql`SELECT grp, at - (at % 3600000) AS hour, avg(n1), min(n1), max(n1), avg(n2), avg(n3), max(txt) FROM panel_history WHERE device_id = ${q.deviceId} AND org_id = ${q.orgId} AND at >= ${q.from} AND at < ${q.to} AND grp IN ('telemetry', 'brightness', 'sound', 'network') GROUP BY grp, at - (at % 3600000) ORDER BY 2`,
    'hourly rows': sql`SELECT grp, hour, n1, n1_min, n1_max, n2, n3, txt FROM panel_history_hourly WHERE device_id = ${q.deviceId} AND org_id = ${q.orgId} AND hour >= ${q.from} AND hour < ${q.to} ORDER BY hour`,
  };
  const plans: Record<string, string> = {};
  for (const [name, statement] of Object.entries(statements)) {
    const explain =
      engine === 'postgres'
        ? sql<Record<string, string>>`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement}`
        : sql<Record<string, string>>`EXPLAIN QUERY PLAN ${statement}`;
    const { rows } = await explain.execute(db);
    plans[name] = rows.map((r) => (engine === 'postgres' ? r['QUERY PLAN'] : r['detail'])).join('\n');
  }
  return plans;
}
