/**
 * `npm run bench:ota-task`: creating an OTA task for 100,000 panels (force upgrade of one label,
 * the whole HTTP call: session, validation, label and file checks, the task row, one INSERT ...
 * SELECT with the skip rules and waves, wave rows, the operation log) against the raw
 * `INSERT ... SELECT` of the same rows into rollout_targets, on the same database, alternating,
 * in the same run. SQLite by default; OTA_TASK_PG=postgres://... runs it on PostgreSQL. Each
 * round prints the wall time and this process's CPU (the server runs in it; on PostgreSQL the
 * database's own CPU is elsewhere, so there the time is the figure): on a loaded machine the CPU
 * ratio is the one to judge by.
 *
 * Environment: DEVICES (100000), ROUNDS (5), OTA_TASK_PG.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { systemClock } from '../apps/server/src/clock.js';
import { loadConfig } from '../apps/server/src/config.js';
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
const PG = process.env.OTA_TASK_PG;
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
const ratios = (ours: Timed[], peer: Timed[], goal: string) => {
  const of = (key: keyof Timed) => median(ours.map((r) => r[key])) / median(peer.map((r) => r[key]));
  return `${fmt(of('cpuMs'), 2)}x the CPU${goal}; ${fmt(of('ms'), 2)}x the time`;
};

runBenchmark('bench:ota-task', 900_000, async () => {
  const load = loadAverage();
  const dataDir = tempDir('pf-ota-task-');
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
  const app = await buildApp(config, {
    logger: false,
    databaseSchema: schema,
    rollout: { tickMs: 3_600_000 },
  });
  onCleanup(() => app.close());
  const accounts = await seedAccounts(app.db, PEPPER, systemClock);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = app.http.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const db = app.db.kysely;
  const org = accounts.customerId;
  const now = Date.now();

  console.log(`seeding ${DEVICES} panels in one label (${app.db.dialect})...`);
  for (let i = 0; i < DEVICES; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, DEVICES - i) }, (_, j) => ({
      org_id: org,
      device_key: `TASK-${String(i + j).padStart(6, '0')}`,
      name: `Panel ${String(i + j).padStart(6, '0')}`,
      secret_hash: 'x'.repeat(64),
      machine_type: ['x9_vn', 'oem', 'rs'][(i + j) % 3]!,
      ota_version: '1.4.2',
      enrolled_at: now,
      utc_offset: 480,
    }));
    await db.insertInto('devices').values(rows).execute();
  }
  const { id: group } = await db
    .insertInto('labels')
    .values({ org_id: org, name: 'all', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`INSERT INTO label_devices (label_id, device_id, org_id) SELECT ${group}, id, org_id FROM devices WHERE org_id = ${org}`.execute(
    db,
  );

  const operator = await Operator.signIn(url);
  const cookie = (operator as unknown as { cookies: Map<string, string> }).cookies;
  const session = `pf_session=${cookie.get('pf_session')}`;
  const image = crypto.randomBytes(64 * 1024);
  const created = await fetch(`${url}/upload/tus`, {
    method: 'POST',
    headers: {
      cookie: session,
      'tus-resumable': '1.0.0',
      'upload-length': String(image.length),
      'upload-metadata': `kind ${Buffer.from('firmware').toString('base64')},filename ${Buffer.from('fw.bin').toString('base64')}`,
    },
  });
  const uploadId = created.headers.get('location')!.split('/').pop()!;
  await fetch(`${url}/upload/tus/${uploadId}`, {
    method: 'PATCH',
    headers: {
      cookie: session,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: image,
  });
  const types = (await operator.request('GET', '/otaFile/machineTypeOptions')) as {
    listObject: Array<{ machineTypeId: number }>;
  };
  const file = (await operator.request('POST', '/otaFile/insert', {
    uploadId,
    otaVersion: '2.0.0',
    fitMachineTypeId: types.listObject.map((t) => t.machineTypeId).join(','),
  })) as { dataObject: { id: number } };

  // Wall time and this process's CPU (the server is in it; under load the CPU is the figure to read).
  const product: Timed[] = [];
  const staged: Timed[] = [];
  const raw: Timed[] = [];
  const force = async (waves: Record<string, string>): Promise<Timed> => {
    const t0 = process.hrtime.bigint();
    const cpu0 = ownCpuSeconds();
    const reply = (await operator.request('POST', '/otaFile/forceUpdate', {
      tagIds: String(group),
      otaFileId: String(file.dataObject.id),
      timeEnable: '1',
      upgradeTime: '2099-01-01 08:00:00',
      ...waves,
    })) as { hhtStatus: string; dataObject: { otaTaskId: number; deviceCount: number } };
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpuMs = (ownCpuSeconds() - cpu0) * 1000;
    if (reply.hhtStatus !== 'success' || reply.dataObject.deviceCount !== DEVICES)
      throw new Error(JSON.stringify(reply));
    await db.deleteFrom('rollout_tasks').where('id', '=', reply.dataObject.otaTaskId).execute();
    return { ms, cpuMs };
  };
  for (let r = 0; r < ROUNDS; r++) {
    product.push(await force({}));
    staged.push(await force({ waveMode: 'percent', firstWave: '5', waveStep: '25' }));

    const { id: task } = await db
      .insertInto('rollout_tasks')
      .values({
        org_id: org,
        kind: 'raw',
        payload_id: 0,
        payload: '{}',
        payload_label: '',
        state: 'scheduled',
        time_enable: 1,
        fire_at: now,
        fire_by: null,
        fired_at: null,
        wave_mode: 'none',
        success_share: 90,
        failure_share: 20,
        min_results: 5,
        wave_count: 1,
        total: 0,
        max_downloads: null,
        created_by: null,
        created_by_name: 'bench',
        created_at: now,
        updated_at: now,
        finished_at: null,
        lease_owner: null,
        lease_until: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const t0 = process.hrtime.bigint();
    const cpu0 = ownCpuSeconds();
    await db.transaction().execute((trx) =>
      sql`INSERT INTO rollout_targets (task_id, org_id, device_id, wave, state, reason, from_version, created_at, updated_at)
        SELECT ${task}, ${org}, d.id, 0, 'queued', '', d.ota_version, ${now}, ${now} FROM devices d
        WHERE d.org_id = ${org} AND EXISTS (SELECT 1 FROM label_devices g WHERE g.device_id = d.id AND g.label_id IN (${group}))`.execute(
        trx,
      ),
    );
    raw.push({ ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuMs: (ownCpuSeconds() - cpu0) * 1000 });
    await db.deleteFrom('rollout_tasks').where('id', '=', task).execute();
  }
  printTable(
    `OTA task for ${DEVICES} panels on ${app.db.dialect} (${new Date().toISOString().slice(0, 10)}; ${machineDescription()}; load ${load})`,
    [
      ...row('force upgrade (HTTP call), one wave', product),
      ...row('raw INSERT ... SELECT', raw),
      ...row('force upgrade in waves (5%, then 25%)', staged),
      ['ratio one wave / raw (medians)', ratios(product, raw, ' (goal <= 1.3x)')],
      ['ratio in waves / raw (medians)', ratios(staged, raw, ' (goal <= 1.3x)')],
    ],
  );
});
