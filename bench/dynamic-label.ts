/**
 * `npm run bench:dynamic-label`: dynamic labels (issue 28 item 3) over 1,000,000 devices on
 * SQLite, or on PostgreSQL with BENCH_DATABASE_URL=postgres://... (a schema of its own, dropped
 * after). Each filter's query plan is printed (EXPLAIN QUERY PLAN / EXPLAIN). The database is the server's (migrated with its indexes, migration 047); membership is
 * counted by the server's own code (LabelRepository.countMatching, which compiles the filter in
 * modules/label-membership), REQUESTS times per filter, timed around the call.
 *
 * Devices: one company holds 900,000 and another 100,000 (the filter is scoped to the first),
 * seeded with one INSERT ... SELECT from a recursive CTE: 20 machine types, 50 firmware
 * versions, a third online, last seen spread over a day, names "Hall 0000042".
 *
 * Budgets: membership count p99 under 50 ms for the indexed fields (machine type, firmware
 * version, online); a keep-adding rollout's check (one INSERT ... SELECT ... WHERE NOT EXISTS)
 * under 1 % of a core per minute, that is one check under 600 ms.
 *
 * Environment: DEVICES (1000000), REQUESTS (200), KEEP_CHECKS (10), BENCH_DATABASE_URL.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { device } from '@panelfleet/contract';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { LabelRepository } from '../apps/server/src/modules/labels/repository.js';
import { RolloutRepository } from '../apps/server/src/modules/rollouts/repository.js';
import { loadAverage, machineDescription, printTable } from './lib/harness.js';

const DEVICES = Number(process.env.DEVICES ?? 1_000_000);
const REQUESTS = Number(process.env.REQUESTS ?? 200);
const KEEP_CHECKS = Number(process.env.KEEP_CHECKS ?? 10);
const BUDGET_MS = 50;

const PG = process.env.BENCH_DATABASE_URL;
const schema = PG ? `bench_dl_${crypto.randomBytes(5).toString('hex')}` : undefined;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-dynamic-label-'));
const db = PG
  ? openDatabase({ kind: 'postgres', url: PG, queryTimeoutMs: 600_000 }, { schema })
  : openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.db') });

async function admin(text: string) {
  const client = new pg.Client({ connectionString: PG });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The plan of the count a filter compiles to, one line per step. */
async function planOf(query: ReturnType<typeof sql>): Promise<string> {
  const k = db.kysely;
  const compiled = query.compile(k);
  if (db.dialect === 'postgres') {
    const rows = await sql<{
      'QUERY PLAN': string;
    }>`EXPLAIN (ANALYZE, BUFFERS OFF) ${sql.raw(interpolate(compiled.sql, compiled.parameters))}`.execute(k);
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n    ');
  }
  const rows = await sql<{
    detail: string;
  }>`EXPLAIN QUERY PLAN ${sql.raw(interpolate(compiled.sql, compiled.parameters))}`.execute(k);
  return rows.rows.map((r) => r.detail).join('; ');
}

/** The statement with its parameters written in (numbers and strings only), for EXPLAIN. */
function interpolate(text: string, parameters: readonly unknown[]): string {
  const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  return db.dialect === 'postgres'
    ? text.replace(/\$(\d+)/g, (_, n: string) => literal(parameters[Number(n) - 1]))
    : (() => {
        let i = 0;
        return text.replace(/\?/g, () => literal(parameters[i++]));
      })();
}

function p(samples: number[], q: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

async function main() {
  console.log(`${machineDescription()}; ${db.dialect}; load before: ${loadAverage()}`);
  if (schema) await admin(`CREATE SCHEMA ${schema}`);
  await migrateToLatest(db);
  const k = db.kysely;
  const now = Date.now();
  const org = async (name: string) =>
    (
      await k
        .insertInto('organisations')
        .values({ parent_id: null, kind: 'customer', name, user_quota: 5, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const orgA = await org('Bench A');
  const orgB = await org('Bench B');
  const seedStart = performance.now();
  if (db.dialect === 'postgres') {
    await sql`INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at, machine_type, model, ota_version, online, last_seen_at, geo_country)
      SELECT CASE WHEN i % 10 = 9 THEN ${orgB}::int ELSE ${orgA}::int END, 'DL-' || lpad(i::text, 7, '0'), 'Hall ' || lpad(i::text, 7, '0'), 'x', 0,
        'MT-' || lpad((i % 20)::text, 2, '0'), 'PF-86', '1.' || (i % 50) || '.0', CASE WHEN i % 3 = 0 THEN 1 ELSE 0 END,
        ${now}::bigint - (i % 1440) * 60000, CASE WHEN i % 4 = 0 THEN 'China' ELSE 'Germany' END
      FROM generate_series(0, ${DEVICES - 1}::int) AS i`.execute(k);
    // Index-only counts need the visibility map, which VACUUM writes (autovacuum would, later).
    await sql`VACUUM ANALYZE devices`.execute(k);
  } else {
    await sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${DEVICES})
      INSERT INTO devices (org_id, device_key, name, secret_hash, enrolled_at, machine_type, model, ota_version, online, last_seen_at, geo_country)
      SELECT CASE WHEN i % 10 = 9 THEN ${orgB} ELSE ${orgA} END, 'DL-' || printf('%07d', i), 'Hall ' || printf('%07d', i), 'x', 0,
        'MT-' || printf('%02d', i % 20), 'PF-86', '1.' || (i % 50) || '.0', CASE WHEN i % 3 = 0 THEN 1 ELSE 0 END,
        ${now} - (i % 1440) * 60000, CASE WHEN i % 4 = 0 THEN 'China' ELSE 'Germany' END
      FROM n`.execute(k);
    await sql`ANALYZE`.execute(k);
  }
  const seedSeconds = (performance.now() - seedStart) / 1000;
  console.log(`seeded ${DEVICES} devices in ${seedSeconds.toFixed(1)} s; load: ${loadAverage()}`);

  const labels = new LabelRepository(k);
  const filters: Array<{ what: string; indexed: boolean; filter: device.LabelFilter }> = [
    { what: 'machine type (1 of 20)', indexed: true, filter: { machineTypes: ['MT-07'] } },
    { what: 'machine types (3 of 20)', indexed: true, filter: { machineTypes: ['MT-01', 'MT-02', 'MT-03'] } },
    { what: 'firmware version (1 of 50)', indexed: true, filter: { firmware: { versions: ['1.7.0'] } } },
    { what: 'online (a third)', indexed: true, filter: { online: true } },
    { what: 'offline (two thirds)', indexed: true, filter: { online: false } },
    { what: 'machine type + online', indexed: true, filter: { machineTypes: ['MT-07'], online: true } },
    {
      what: 'firmware range 1.10..1.19 (distinct versions, then IN)',
      indexed: true,
      filter: { firmware: { min: '1.10.0', max: '1.19.0' } },
    },
    {
      what: 'last seen within 60 min (scan)',
      indexed: false,
      filter: { lastSeen: { within: 'within', minutes: 60 } },
    },
    { what: 'name pattern hall 00001* (scan)', indexed: false, filter: { namePattern: 'hall 00001*' } },
  ];
  const rows: Array<[string, string]> = [];
  const plans: Array<[string, string]> = [];
  for (const { what, indexed, filter } of filters) {
    plans.push([what, await planOf(await labels.countQuery(orgA, filter, now))]);
    const samples: number[] = [];
    let count = 0;
    const runs = indexed ? REQUESTS : Math.max(5, Math.round(REQUESTS / 20));
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      count = await labels.countMatching(orgA, filter, now);
      samples.push(performance.now() - t0);
    }
    const p99 = p(samples, 0.99);
    const verdict = indexed ? (p99 < BUDGET_MS ? 'within budget' : 'OVER BUDGET') : 'not indexed, no budget';
    rows.push([
      what,
      `${count} match; p50 ${p(samples, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (${runs} runs) - ${verdict}`,
    ]);
  }
  printTable(
    `Membership count, 1 company of ${DEVICES} devices, ${db.dialect} (load ${loadAverage()})`,
    rows,
  );
  printTable('Query plans', plans);

  // A running keep-adding rollout to a dynamic label of ~45,000 panels, nothing new to add.
  const label = await labels.insert(orgA, 'Bench MT-07', now, JSON.stringify({ machineTypes: ['MT-07'] }));
  const rollouts = new RolloutRepository(k, db.dialect);
  const created = await rollouts.createTask(
    {
      orgId: orgA,
      kind: 'bench',
      payloadId: 1,
      payload: {},
      payloadLabel: 'bench',
      labelIds: [label!],
      keepAdding: true,
      skip: [{ reason: 'disabled', disabled: true }],
      timeEnable: false,
      fireAt: now,
      fireBy: null,
      waves: { mode: 'count' },
      successShare: 100,
      failureShare: 10,
      minResults: 1,
      maxDownloads: null,
      createdBy: null,
      createdByName: 'bench',
      now,
    },
    { first: 1000, step: 1000 },
  );
  const task = await k
    .selectFrom('rollout_tasks')
    .selectAll()
    .where('id', '=', created.id)
    .executeTakeFirstOrThrow();
  const checks: number[] = [];
  for (let r = 0; r < KEEP_CHECKS; r++) {
    const t0 = performance.now();
    await rollouts.addMatching(task, now);
    checks.push(performance.now() - t0);
  }
  // One more panel starts to match: the check adds it.
  await k
    .updateTable('devices')
    .set({ machine_type: 'MT-07' })
    .where('device_key', '=', 'DL-0000008')
    .execute();
  const t0 = performance.now();
  const added = await rollouts.addMatching(task, now);
  const addMs = performance.now() - t0;
  const worst = Math.max(...checks);
  printTable(`Keep-adding check, task of ${created.total} panels (load ${loadAverage()})`, [
    [
      'check, nothing new',
      `p50 ${p(checks, 0.5).toFixed(1)} ms, max ${worst.toFixed(1)} ms (${KEEP_CHECKS} runs)`,
    ],
    ['check adding 1 panel', `${addMs.toFixed(1)} ms, added ${added}`],
    [
      'share of a core, one check a minute',
      `${((worst / 60_000) * 100).toFixed(3)} % (budget 1 %) - ${worst < 600 ? 'within budget' : 'OVER BUDGET'}`,
    ],
  ]);
}

async function done() {
  await db.close();
  if (schema) await admin(`DROP SCHEMA ${schema} CASCADE`);
  fs.rmSync(dir, { recursive: true, force: true });
}

main()
  .then(done)
  .catch(async (error: unknown) => {
    console.error(error);
    await done();
    process.exitCode = 1;
  });
