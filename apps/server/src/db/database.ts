import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Database } from './schema.js';

export type Dialect = DatabaseTarget['kind'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the schema every table lives in. */
  schema?: string;
  close(): Promise<void>;
}

// BIGINT (epoch-ms times, counts) fits a JS number; parse it as one instead of a string.
pg.types.setTypeParser(20, (value) => Number(value));

export interface OpenOptions {
  /** PostgreSQL only: the schema to use (tests give each server its own). */
  schema?: string;
}

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Db {
  if (target.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(target.file), { recursive: true });
    const sqlite = new SqliteDatabase(target.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', schema: options.schema ?? 'public', close: () => kysely.destroy() };
}
