import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './database.js';

/** The PostgreSQL type of each column of a JSON row set (SQLite takes JSON's own types). */
export type JsonRowType = 'text' | 'int4' | 'int8' | 'float8';
export type JsonRowColumns = Record<string, JsonRowType>;

/**
 * Many rows as a table `v` with the given columns, for set-based writes: the cells that differ
 * between rows travel as one JSON array of arrays, read back through `json_each` (SQLite) or
 * `jsonb_array_elements` (PostgreSQL); a column with the same value in every row is one bound
 * parameter instead.
 *
 * Why: a VALUES list binds a parameter per cell, so every batch size is a different, long
 * statement for Kysely to build and the database to prepare (a 500-row insert of commands binds
 * 6,000). Here the statement text depends only on the columns and which of them vary, so it is
 * built and prepared once. Reading a JSON cell costs more than binding one, hence the shared
 * columns (a label command's 10,000 rows differ only in id and device).
 */
export function jsonRows(dialect: Dialect, columns: JsonRowColumns, rows: unknown[][]): RawBuilder<unknown> {
  const entries = Object.entries(columns);
  const first = rows[0] ?? [];
  const shared = entries.map((_, i) => rows.every((row) => row[i] === first[i]));
  const varying = entries.flatMap((_, i) => (shared[i] ? [] : [i]));
  const json = JSON.stringify(rows.map((row) => varying.map((i) => row[i] ?? null)));
  const cells = entries.map(([name, type], i) => {
    const cell = shared[i]
      ? sql`${first[i] ?? null}`
      : dialect === 'postgres'
        ? sql`e->>${sql.lit(varying.indexOf(i))}`
        : sql`value->>${sql.lit(varying.indexOf(i))}`;
    return dialect === 'postgres'
      ? sql`(${cell})::${sql.raw(type)} AS ${sql.ref(name)}`
      : sql`${cell} AS ${sql.ref(name)}`;
  });
  return dialect === 'postgres'
    ? sql`(SELECT ${sql.join(cells)} FROM jsonb_array_elements(${json}::jsonb) AS e) AS v`
    : sql`(SELECT ${sql.join(cells)} FROM json_each(${json})) AS v`;
}
