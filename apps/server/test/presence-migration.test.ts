import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { migrateTo, migrateToLatest } from '../src/db/migrate.js';
import { backends } from './harness.js';

/**
 * Migration 049: `online` as instances before it wrote it has no holder, so no instance's sweep
 * would ever correct it; every panel starts offline and presence is learnt again at start.
 */
describe.each(backends)('presence holder migration on %s', (backend) => {
  let db: Db;
  let schema: string | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-presence-migration-'));
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(text);
    await client.end();
  };

  beforeAll(async () => {
    if (backend === 'postgres') {
      schema = `t_${crypto.randomBytes(6).toString('hex')}`;
      await admin(`CREATE SCHEMA ${schema}`);
    }
    db = openDatabase(
      backend === 'postgres'
        ? { kind: 'postgres', url: databaseUrl! }
        : { kind: 'sqlite', file: path.join(dataDir, 'panelfleet.db') },
      { schema },
    );
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) await admin(`DROP SCHEMA ${schema} CASCADE`);
  });

  it('marks every panel offline, keeping when each last changed', async () => {
    await migrateTo(db, '048-device-import');
    const k = db.kysely;
    const org = await sql<{ id: number }>`INSERT INTO organisations (kind, name, user_quota, created_at)
      VALUES ('customer', 'Riverside', 5, 1) RETURNING id`.execute(k);
    const orgId = Number(org.rows[0]!.id);
    for (const [key, online] of [
      ['PF-1', 1],
      ['PF-2', 0],
    ] as const)
      await sql`INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at, online, online_at)
        VALUES (${orgId}, ${key}, ${key}, 'x', 1, ${online}, 1000)`.execute(k);

    expect(await migrateToLatest(db)).toContain('049-presence-owner');
    const rows = await k
      .selectFrom('devices')
      .select(['device_key', 'online', 'online_at', 'online_by'])
      .orderBy('device_key')
      .execute();
    expect(rows.map((r) => ({ ...r, online_at: Number(r.online_at) }))).toEqual([
      { device_key: 'PF-1', online: 0, online_at: 1000, online_by: null },
      { device_key: 'PF-2', online: 0, online_at: 1000, online_by: null },
    ]);
  });
});
