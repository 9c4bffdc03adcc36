import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonRows } from '../src/db/json-rows.js';
import { backends, startServer, type TestServer } from './harness.js';

describe.each(backends)('rows as one JSON parameter on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(() => server.stop());

  const read = async (rows: unknown[][]) => {
    const table = jsonRows(
      server.app.db.dialect,
      { n: 'int8', name: 'text', x: 'float8', note: 'text' },
      rows,
    );
    const result = await sql<{
      n: number;
      name: string;
      x: number | null;
      note: string | null;
    }>`SELECT * FROM ${table} ORDER BY n`.execute(server.app.db.kysely);
    return result.rows.map((r) => ({ ...r, n: Number(r.n) }));
  };

  it('reads back every row and cell, shared and varying, with quotes, nulls and large numbers', async () => {
    expect(
      await read([
        [4_294_967_296, "it's", 1.5, null],
        [2, 'it\'s "quoted"', null, null],
        [3, 'ü 漢字', 40.25, null],
      ]),
    ).toEqual([
      { n: 2, name: 'it\'s "quoted"', x: null, note: null },
      { n: 3, name: 'ü 漢字', x: 40.25, note: null },
      { n: 4_294_967_296, name: "it's", x: 1.5, note: null },
    ]);
  });

  it('binds a column that every row shares once and still yields one row per input row', async () => {
    expect(
      await read([
        [7, 'same', 2.5, 'x'],
        [8, 'same', 2.5, 'x'],
      ]),
    ).toEqual([
      { n: 7, name: 'same', x: 2.5, note: 'x' },
      { n: 8, name: 'same', x: 2.5, note: 'x' },
    ]);
    expect(await read([[9, 'one', 0.5, null]])).toEqual([{ n: 9, name: 'one', x: 0.5, note: null }]);
  });
});
