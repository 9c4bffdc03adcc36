import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteReader, SqliteReadError } from './sqlite-reader.js';

/** A query that keeps SQLite busy for a while: two million rows counted by a recursive CTE. */
const LONG_COUNT = CompiledQuery.raw(
  'WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000000) SELECT count(*) AS n FROM c',
) as CompiledQuery<{ n: number }>;

describe('SqliteReader', () => {
  let dir: string;
  let file: string;
  let writer: SqliteDatabase.Database;
  let reader: SqliteReader;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-reader-'));
    file = path.join(dir, 'db.sqlite');
    writer = new SqliteDatabase(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    writer.prepare('INSERT INTO t (name) VALUES (?), (?)').run('first', 'second');
    reader = new SqliteReader(file);
  });
  afterEach(async () => {
    await reader.close();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads rows with parameters, and sees what the main connection commits afterwards', async () => {
    const byId = CompiledQuery.raw('SELECT name FROM t WHERE id >= ? ORDER BY id', [1]) as CompiledQuery<{
      name: string;
    }>;
    expect(await reader.all(byId)).toEqual([{ name: 'first' }, { name: 'second' }]);
    writer.prepare('INSERT INTO t (name) VALUES (?)').run('third');
    expect((await reader.all(byId)).map((r) => r.name)).toEqual(['first', 'second', 'third']);
  });

  it('is read-only: a write is refused with SQLite code and nothing changes', async () => {
    const write = CompiledQuery.raw("INSERT INTO t (name) VALUES ('x') RETURNING id");
    const error = await reader.all(write).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqliteReadError);
    expect((error as SqliteReadError).code).toBe('SQLITE_READONLY');
    expect(writer.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
  });

  it('reports a broken statement to its caller and goes on serving the next one', async () => {
    const broken = reader.all(CompiledQuery.raw('SELECT nope FROM t'));
    const fine = reader.all(CompiledQuery.raw('SELECT count(*) AS n FROM t'));
    await expect(broken).rejects.toThrow(/no such column: nope/);
    expect(await fine).toEqual([{ n: 2 }]);
  });

  it('leaves the calling thread free while a long read runs', async () => {
    const order: string[] = [];
    const read = reader.all(LONG_COUNT).then(() => order.push('rows'));
    await new Promise<void>((resolve) => setImmediate(resolve));
    order.push('event loop turned');
    await read;
    expect(order).toEqual(['event loop turned', 'rows']);
  });

  it('runs two long reads at once on two threads, and the next read goes to the less busy one', async () => {
    const first = reader.all(LONG_COUNT);
    const second = reader.all(LONG_COUNT);
    expect(reader.threadsBusy).toBe(2);
    expect(await Promise.all([first, second])).toEqual([[{ n: 2000000 }], [{ n: 2000000 }]]);
    expect(reader.threadsBusy).toBe(0);
  });

  it('fails reads once closed', async () => {
    await reader.close();
    await expect(reader.all(CompiledQuery.raw('SELECT 1'))).rejects.toThrow(/closed/);
  });
});
