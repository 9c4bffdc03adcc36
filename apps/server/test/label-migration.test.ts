import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { migrateTo, migrateToLatest } from '../src/db/migrate.js';
import { DeviceRepository } from '../src/modules/devices/repository.js';
import { LabelRepository } from '../src/modules/labels/repository.js';
import { backends } from './harness.js';

/**
 * Migration 010 renames groups/group_devices/group_id to labels/label_devices/label_id: the
 * labels and memberships a database already holds must survive it, and afterwards no table,
 * column, constraint, index or sequence of the labels says "group".
 */
describe.each(backends)('label names migration on %s', (backend) => {
  let db: Db;
  let schema: string | undefined;
  let dataDir: string;
  const databaseUrl = process.env.TEST_DATABASE_URL;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-migration-'));
    if (backend === 'postgres') {
      schema = `t_${crypto.randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
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
    if (schema) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    }
  });

  it('keeps every label and membership and leaves no "group" in their names', async () => {
    await migrateTo(db, '009-command-requests');
    const k = db.kysely;
    const org = await sql<{ id: number }>`INSERT INTO organisations (kind, name, user_quota, created_at)
      VALUES ('customer', 'Riverside', 5, 1) RETURNING id`.execute(k);
    const orgId = Number(org.rows[0]!.id);
    const deviceIds: number[] = [];
    for (const key of ['PF-1', 'PF-2']) {
      const row = await sql<{
        id: number;
      }>`INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at)
        VALUES (${orgId}, ${key}, ${key}, 'x', 1) RETURNING id`.execute(k);
      deviceIds.push(Number(row.rows[0]!.id));
    }
    const labelIds: number[] = [];
    for (const name of ['Hall', 'Lobby']) {
      const row = await sql<{ id: number }>`INSERT INTO groups (org_id, name, created_at)
        VALUES (${orgId}, ${name}, 1) RETURNING id`.execute(k);
      labelIds.push(Number(row.rows[0]!.id));
    }
    await sql`INSERT INTO group_devices (group_id, device_id, org_id) VALUES
      (${labelIds[0]}, ${deviceIds[0]}, ${orgId}), (${labelIds[1]}, ${deviceIds[0]}, ${orgId}),
      (${labelIds[1]}, ${deviceIds[1]}, ${orgId})`.execute(k);

    expect(await migrateToLatest(db)).toContain('010-label-names');

    const labels = new LabelRepository(k);
    expect(await labels.list(orgId)).toEqual([
      { id: labelIds[0], name: 'Hall' },
      { id: labelIds[1], name: 'Lobby' },
    ]);
    expect(await new DeviceRepository(k).labelNamesOf(orgId, deviceIds)).toEqual(
      new Map([
        [deviceIds[0], ['Hall', 'Lobby']],
        [deviceIds[1], ['Lobby']],
      ]),
    );
    // The unique name, the primary key and the id sequence still work under their new names.
    expect(await labels.insert(orgId, 'Hall', 2)).toBeUndefined();
    const third = await labels.insert(orgId, 'Stage', 2);
    expect(third).toBeGreaterThan(labelIds[1]!);
    await expect(
      sql`INSERT INTO label_devices (label_id, device_id, org_id) VALUES (${labelIds[0]}, ${deviceIds[0]}, ${orgId})`.execute(
        k,
      ),
    ).rejects.toThrow();

    const names =
      backend === 'postgres'
        ? (
            await sql<{ name: string }>`
              SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = ${schema}
              UNION ALL SELECT conname FROM pg_constraint co JOIN pg_namespace n ON n.oid = co.connamespace
                WHERE n.nspname = ${schema}
              UNION ALL SELECT column_name FROM information_schema.columns WHERE table_schema = ${schema}`.execute(
              k,
            )
          ).rows.map((r) => r.name)
        : (
            await sql<{ name: string }>`
              SELECT name FROM sqlite_master
              UNION ALL SELECT p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'`.execute(
              k,
            )
          ).rows.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['labels', 'label_devices', 'label_id']));
    expect(names.filter((name) => name.includes('group'))).toEqual([]);
  });
});
