/**
 * `npm run bench:all-matching`: a command to "all matching" 100,000 panels (issue 28's budget),
 * the whole HTTP call (session, validation, the filter resolved in the caller's organisation, one
 * INSERT ... SELECT of the commands, the operation log, the transaction), against the raw
 * `INSERT ... SELECT` of the same command rows from the same filter, on the same database,
 * alternating, in the same run. Two filters: the device list's search anywhere ("panel": every
 * panel's name holds it, so the trigram index hands back all 100,000) and no filter (every panel).
 * A settings push to all matching makes a push row per panel too: it is measured against the raw
 * INSERT ... SELECT of both its commands and its push rows. SQLite by default; ALL_MATCHING_PG=
 * postgres://... runs it on PostgreSQL. Each round prints the wall time and this process's CPU
 * (the server runs in it; on PostgreSQL the database's CPU is elsewhere, so there the time is the
 * figure).
 *
 * Environment: DEVICES (100000), ROUNDS (5), ALL_MATCHING_PG.
 */
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { systemClock } from '../apps/server/src/clock.js';
import { loadConfig } from '../apps/server/src/config.js';
import type { Database } from '../apps/server/src/db/schema.js';
import { seedAccounts } from '../apps/server/src/dev/seed-accounts.js';
import {
  fmt,
  loadAverage,
  machineDescription,
  onCleanup,
  printTable,
  runBenchmark,
  tempDir,
} from './lib/harness.js';
import { ownCpuSeconds } from './lib/cpu.js';
import { Operator } from './lib/operator.js';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PG = process.env.ALL_MATCHING_PG;
const PEPPER = 'bench-pepper-0123456789abcdef';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Timed {
  ms: number;
  cpuMs: number;
}
const row = (name: string, rounds: Timed[]): Array<[string, string]> =>
  (['ms', 'cpuMs'] as const).map((key) => [
    `${name}, ${key === 'ms' ? 'ms' : 'CPU ms'} per round`,
    `${rounds.map((r) => fmt(r[key])).join(' / ')}; median ${fmt(median(rounds.map((r) => r[key])))}`,
  ]);
const ratios = (ours: Timed[], peer: Timed[]) => {
  const of = (key: keyof Timed) => median(ours.map((r) => r[key])) / median(peer.map((r) => r[key]));
  return `${fmt(of('ms'), 2)}x the time (goal <= 1.3x); ${fmt(of('cpuMs'), 2)}x the CPU`;
};

async function timed(work: () => Promise<void>): Promise<Timed> {
  const t0 = process.hrtime.bigint();
  const cpu0 = ownCpuSeconds();
  await work();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: (ownCpuSeconds() - cpu0) * 1000 };
}

runBenchmark('bench:all-matching', 1_200_000, async () => {
  const load = loadAverage();
  const dataDir = tempDir('pf-all-matching-');
  let schema: string | undefined;
  if (PG) {
    schema = `bench_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    onCleanup(async () => {
      const c = new pg.Client({ connectionString: PG });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    });
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    MQTT_PORT: '0',
    CAPTCHA: 'off',
    PASSWORD_PEPPER: PEPPER,
    ADMIN_PASSWORD: 'admin123',
    LOG_LEVEL: 'silent',
    ...(PG ? { DATABASE_URL: PG } : {}),
  });
  const app = await buildApp(config, { logger: false, databaseSchema: schema });
  onCleanup(() => app.close());
  const accounts = await seedAccounts(app.db, PEPPER, systemClock);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = app.http.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const db: Kysely<Database> = app.db.kysely;
  const org = accounts.customerId;
  const now = Date.now();

  console.log(`seeding ${DEVICES} panels (${app.db.dialect}); load average ${load}...`);
  for (let i = 0; i < DEVICES; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, DEVICES - i) }, (_, j) => ({
      org_id: org,
      device_key: `AM-${String(i + j).padStart(6, '0')}`,
      name: `Panel ${String(i + j).padStart(6, '0')}`,
      secret_hash: 'x'.repeat(64),
      machine_type: 'x9_vn',
      enrolled_at: now,
    }));
    await db.insertInto('devices').values(rows).execute();
  }
  const other = await seedAccounts(app.db, PEPPER, systemClock, [
    { userName: 'bench-b', password: 'benchb123', userType: '4' },
  ]);
  // Another company's panels that match the same search: the filter must leave them out.
  await db
    .insertInto('devices')
    .values(
      Array.from({ length: 1000 }, (_, i) => ({
        org_id: other.customerId,
        device_key: `AMB-${i}`,
        name: `Panel B${i}`,
        secret_hash: 'x',
        machine_type: 'x9_vn',
        enrolled_at: now,
      })),
    )
    .execute();

  const operator = await Operator.signIn(url);
  const template = (await operator.request('POST', '/deviceSetting/addSetting', {
    type: '0',
    series: 'x9_vn',
  })) as { id: number };
  const post = async (path: string, json: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: {
        cookie: operator.cookieHeader(),
        'content-type': 'application/json',
        origin: url,
        accept: 'application/json',
      },
      body: JSON.stringify(json),
    });
    return (await response.json()) as { hhtStatus: string; dataObject?: { count: number }; hhtMsg?: string };
  };
  const published: Timed[] = [];
  /** The panels that listen are published to after the reply (none here): waited for outside the timing. */
  const settle = async () => published.push(await timed(() => app.devices.commands.settle()));
  const clear = async () => {
    await db.deleteFrom('setting_push_targets').execute();
    await db.deleteFrom('setting_pushes').execute();
    await db.deleteFrom('commands').execute();
  };

  /** The raw rows: the same commands (and push rows) from the same filter, no call, no log. */
  const where = (deviceName: string) =>
    !deviceName
      ? sql`d.org_id = ${org}`
      : app.db.dialect === 'sqlite'
        ? sql`d.org_id = ${org} AND d.id IN (SELECT rowid FROM device_search WHERE device_search MATCH ${`"${deviceName}"`})`
        : sql`d.org_id = ${org} AND (d.name_key LIKE ${`%${deviceName}%`} OR lower(d.device_key) LIKE ${`%${deviceName}%`})`;
  const rawCommands = (trx: Kysely<Database>, deviceName: string, prefix: string) =>
    sql`INSERT INTO commands (id, org_id, device_id, order_code, value, status, detail, attempts, expires_at, created_by, relay_for, created_at, updated_at)
      SELECT ${prefix} || ${app.db.dialect === 'sqlite' ? sql`printf('%012x', d.id)` : sql`lpad(to_hex(d.id), 12, '0')`},
        d.org_id, d.id, '03', 'null', 'queued', '', 0, ${now + 600_000}, NULL, NULL, ${now}, ${now}
      FROM devices d WHERE ${where(deviceName)} AND d.state = 1`.execute(trx);
  const prefixOf = () => `${crypto.randomUUID().slice(0, 23)}-`;

  const results: Record<string, { product: Timed[]; raw: Timed[] }> = {};
  const record = (name: string, kind: 'product' | 'raw', t: Timed) => {
    results[name] ??= { product: [], raw: [] };
    results[name][kind].push(t);
  };
  for (let r = 0; r < ROUNDS; r++) {
    for (const deviceName of ['panel', '']) {
      const name = `command, ${deviceName ? `search "${deviceName}"` : 'no filter'}`;
      await clear();
      record(
        name,
        'product',
        await timed(async () => {
          const reply = await post('/sendData/sendCommandToMatching', {
            order: '03',
            matching: { deviceName },
          });
          if (reply.dataObject?.count !== DEVICES) throw new Error(JSON.stringify(reply));
        }),
      );
      await settle();
      await clear();
      record(
        name,
        'raw',
        await timed(() =>
          db.transaction().execute(async (trx) => {
            await rawCommands(trx, deviceName, prefixOf());
          }),
        ),
      );
    }
    const push = 'settings push, search "panel"';
    await clear();
    record(
      push,
      'product',
      await timed(async () => {
        const reply = await post('/sendData/sendSetting', {
          id: String(template.id),
          matching: { deviceName: 'panel' },
        });
        if (reply.dataObject?.count !== DEVICES) throw new Error(JSON.stringify(reply));
      }),
    );
    await settle();
    await clear();
    record(
      push,
      'raw',
      await timed(() =>
        db.transaction().execute(async (trx) => {
          const prefix = prefixOf();
          const { id } = await trx
            .insertInto('setting_pushes')
            .values({
              org_id: org,
              kind: 'template',
              target_count: 0,
              created_by: null,
              created_at: now,
              expires_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await rawCommands(trx, 'panel', prefix);
          await sql`INSERT INTO setting_push_targets (push_id, command_id, org_id, device_id, setting_id, what, offline_at_push)
            SELECT ${id}, c.id, c.org_id, c.device_id, ${template.id}, 'x9_vn', 1 FROM commands c
            WHERE c.id > ${prefix} AND c.id < ${`${prefix}g`} AND c.org_id = ${org}`.execute(trx);
        }),
      ),
    );
  }
  await clear();
  printTable(
    `"All matching" to ${DEVICES} panels on ${app.db.dialect} (${new Date().toISOString().slice(0, 10)}; ${machineDescription()}; load ${load} at start, ${loadAverage()} at end)`,
    [
      ...Object.entries(results).flatMap(([name, { product, raw }]): Array<[string, string]> => [
        ...row(`${name}: HTTP call`, product),
        ...row(`${name}: raw INSERT ... SELECT`, raw),
        [`${name}: ratio (medians)`, ratios(product, raw)],
      ]),
      ...row('after the reply: reading the batch back to publish to listening panels', published),
    ],
  );
});
