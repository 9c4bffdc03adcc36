import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  type RawBuilder,
  PostgresDialect,
  SqliteDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase as SqliteDialectDatabase,
} from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import { isDatabaseUnavailable } from './errors.js';
import type { Database } from './schema.js';
import { SqliteReader } from './sqlite-reader.js';

export type Dialect = DatabaseTarget['kind'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the schema every table lives in. */
  schema?: string;
  /** Long read-only aggregates (reports) that must not hold the server's thread. */
  longReads: LongReads;
  /**
   * Does the database answer `SELECT 1`? On PostgreSQL through a connection of its own, so the
   * answer never waits behind the statements queued for the pool (after a freeze, say).
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where a long read-only query runs: on PostgreSQL, the pool (the database works on its own
 * cores); on SQLite, a read-only connection on a worker thread (`sqlite-reader.ts`).
 */
export interface LongReads {
  all<Row>(query: RawBuilder<Row>): Promise<Row[]>;
}

// BIGINT (epoch-ms times, counts) fits a JS number; parse it as one instead of a string.
pg.types.setTypeParser(20, (value) => Number(value));

export interface OpenOptions {
  /** PostgreSQL only: the schema to use (tests give each server its own). */
  schema?: string;
  /** PostgreSQL only: where errors of pooled connections are reported (a stopped server sends them). */
  onConnectionError?: (err: Error) => void;
}

const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;
/** The longest a readiness ping waits on its connection before it opens another. */
const PING_TIMEOUT_MS = 60_000;

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Db {
  if (target.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(target.file), { recursive: true });
    const sqlite = new SqliteDatabase(target.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    });
    const reader = new SqliteReader(target.file);
    return {
      kysely,
      dialect: 'sqlite',
      longReads: { all: (query) => reader.all(query.compile(kysely)) },
      ping: async () => {
        sqlite.prepare('SELECT 1').get();
      },
      close: async () => {
        await reader.close();
        await kysely.destroy();
      },
    };
  }
  const queryTimeoutMs = target.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const serverOptions = [
    ...(options.schema ? [`-c search_path=${options.schema}`] : []),
    // The server gives up on a statement a second before the client stops waiting for it, so
    // nothing that the client answered 503 for commits later.
    `-c statement_timeout=${queryTimeoutMs}`,
    `-c idle_in_transaction_session_timeout=${queryTimeoutMs * 3}`,
  ];
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    options: serverOptions.join(' '),
    // A frozen or unreachable database answers 503 within these, instead of every request hanging.
    connectionTimeoutMillis: target.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    query_timeout: queryTimeoutMs + 1000,
    keepAlive: true,
  });
  // A stopped or restarted PostgreSQL ends idle pooled connections with an error event (57P01);
  // without a listener that event would end the process. The pool drops the client and makes new
  // ones when the database is back.
  pool.on('error', (err) => options.onConnectionError?.(err));
  // And a listener for a client's whole life: between the pool handing a client out (its idle
  // listener removed) and the code that asked for it adding its own, an end by the server (57P01)
  // would find no listener and end the process (seen once under load in database-outage.test.ts).
  pool.on('connect', (client) => client.on('error', (err) => options.onConnectionError?.(err)));
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: discardingBrokenClients(pool, (err) => options.onConnectionError?.(err)),
    }),
  });
  // Readiness probes' own connection (one, opened when first asked for), apart from the pool.
  // Its ping may wait out a frozen database (readiness answers 503 after 0.5 s meanwhile) and
  // answers the moment it thaws, on the connection it has, instead of timing out and reconnecting.
  const pingPool = new pg.Pool({
    connectionString: target.url,
    max: 1,
    connectionTimeoutMillis: target.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    query_timeout: PING_TIMEOUT_MS,
    keepAlive: true,
  });
  pingPool.on('error', (err) => options.onConnectionError?.(err));
  pingPool.on('connect', (client) => client.on('error', (err) => options.onConnectionError?.(err)));
  return {
    kysely,
    dialect: 'postgres',
    schema: options.schema ?? 'public',
    longReads: { all: async (query) => (await query.execute(kysely)).rows },
    ping: async () => {
      await pingPool.query('SELECT 1');
    },
    close: async () => {
      await Promise.all([kysely.destroy(), pingPool.end()]);
    },
  };
}

/**
 * A connection whose query timed out or broke may still have that statement (or an open
 * transaction) waiting on the server: it must not go back to the pool, where the next request
 * would run inside it. It is closed instead (pg-pool destroys a client released with an error);
 * an open transaction on a closed connection is rolled back by the server.
 */
function discardingBrokenClients(pool: pg.Pool, onCheckedOutError: (err: Error) => void): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let broken: Error | undefined;
      // The pool listens for errors of idle connections only: one that the server ends while it
      // is checked out (between two statements of a transaction) would otherwise be thrown.
      const onError = (err: Error) => {
        broken = err;
        onCheckedOutError(err);
      };
      client.on('error', onError);
      const note = (err: unknown) => {
        if (isDatabaseUnavailable(err)) broken = err instanceof Error ? err : new Error(String(err));
        throw err;
      };
      const query = ((...args: [string, ReadonlyArray<unknown>] | [unknown]) => {
        const result = (client.query as (...a: unknown[]) => unknown)(...args);
        return result instanceof Promise ? result.catch(note) : result;
      }) as PostgresPoolClient['query'];
      return {
        query,
        release: () => {
          client.off('error', onError);
          client.release(broken);
        },
      };
    },
    end: () => pool.end(),
  };
}

const STATEMENT_CACHE_SIZE = 200;

/**
 * Kysely prepares every query anew; SQLite's prepare is a large part of a short statement's cost.
 * Statements are kept by SQL text, least recently used dropped first. One query runs at a time
 * on the connection (Kysely's SQLite driver holds it for the query or stream), so a cached
 * statement is never in use twice.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement) statements.delete(text);
      else statement = sqlite.prepare(text);
      statements.set(text, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
