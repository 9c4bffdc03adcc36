import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)('readiness ping on PostgreSQL', () => {
  let db: Db | undefined;
  afterAll(() => db?.close());

  it('answers while every pooled connection is busy: it has a connection of its own', async () => {
    db = openDatabase({ kind: 'postgres', url: url! });
    // Ten statements hold the pool's ten connections; an eleventh would queue behind them.
    const busy = Promise.all(
      Array.from({ length: 10 }, () => sql`SELECT pg_sleep(1.5)`.execute(db!.kysely)),
    ).then(() => 'pool' as const);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const first = await Promise.race([db.ping().then(() => 'ping' as const), busy]);
    expect(first).toBe('ping');
    await busy;
  });
});
