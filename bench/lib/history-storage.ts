import { sql, type Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.js';

/** Bytes the raw and hourly history tables take on disk, their indexes included. */
export async function historyBytes(db: Kysely<Database>, engine: 'sqlite' | 'postgres') {
  const of = async (table: string) => {
    const query =
      engine === 'postgres'
        ? sql<{ b: number | string }>`SELECT pg_total_relation_size(${table}) AS b`
        : sql<{
            b: number | string;
          }>`SELECT sum(pgsize) AS b FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name = ${table})`;
    const { rows } = await query.execute(db);
    return Number(rows[0]!.b);
  };
  return { raw: await of('panel_history'), hourly: await of('panel_history_hourly') };
}
