import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** An index on `keys` that also carries `values`: INCLUDE on PostgreSQL, trailing key columns on SQLite. */
function coveringIndex(dialect: Dialect, name: string, table: string, keys: string[], values: string[]) {
  const columns =
    dialect === 'postgres'
      ? `(${keys.join(', ')}) INCLUDE (${values.join(', ')})`
      : `(${[...keys, ...values].join(', ')})`;
  return sql.raw(`CREATE INDEX ${name} ON ${table} ${columns}`);
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // A panel's history is read group by group (issue 27, p99 under 50 ms): an index on
  // (device_id, grp, at) that carries the values answers each group's range from the index
  // alone, where (device_id, at) fetched every row of the range from the table, one page each
  // (a panel's rows lie among the fleet's), to keep a few. It replaces that index, so ingest
  // still writes one index per row.
  await coveringIndex(
    dialect,
    'panel_history_device_grp_at_idx',
    'panel_history',
    ['device_id', 'grp', 'at'],
    ['org_id', 'n1', 'n2', 'n3', 'txt'],
  ).execute(db);
  await db.schema.dropIndex('panel_history_device_at_idx').execute();
  // The hourly rows of a range likewise, from the index alone.
  await coveringIndex(
    dialect,
    'panel_history_hourly_read_idx',
    'panel_history_hourly',
    ['device_id', 'hour', 'grp'],
    ['org_id', 'n1', 'n1_min', 'n1_max', 'n2', 'n3', 'txt'],
  ).execute(db);
}
