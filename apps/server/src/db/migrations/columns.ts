import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from '../database.js';

/** An auto-numbered integer primary key named id, in either dialect. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
