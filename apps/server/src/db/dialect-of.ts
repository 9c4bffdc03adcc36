import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether a Kysely instance (or transaction) talks to PostgreSQL rather than SQLite. */
export const onPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;
