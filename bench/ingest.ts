/**
 * `npm run bench:ingest`: state reports per second persisted through the real path (MQTT publish
 * -> embedded broker -> gateway validation -> batch writer -> SQLite), against a raw batched
 * UPDATE loop (better-sqlite3, one transaction per batch) on the same database file, in the same
 * run. Optionally PostgreSQL for the raw loop (INGEST_PG=postgres://... ; a throwaway schema).
 *
 * The load comes from lean generator processes (lib/raw-mqtt.ts: packets built straight into
 * buffers, no mqtt.js): each panel follows the protocol (credentials, last will, SUBSCRIBE,
 * presence) and then keeps INFLIGHT QoS 1 state reports unacknowledged (the simulator's periodic
 * telemetry shape; ramUsed carries a sequence number). Offered = reports the broker acknowledged
 * per second; a report counts as persisted when the device row holds the last sequence number its
 * panel sent.
 *
 * Environment: DEVICES (4000), WORKERS (2), INFLIGHT (4), SECONDS (20), BATCH (2000, the batch writer's maximum).
 * INGEST_SERVER_PG=postgres://.../<an empty database>: the server runs on that PostgreSQL database
 * instead of SQLite (the raw SQLite loop still runs, on a copy of nothing but its own table).
 */
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { describeGenerator, ownCpuSeconds, readAll, shareBetween } from './lib/cpu.js';
import {
  allWorkers,
  cpuSeconds,
  DeviceWorker,
  fmt,
  loadAverage,
  machineDescription,
  printTable,
  runBenchmark,
  sleep,
  startServer,
  sum,
  tempDir,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const DEVICES = Number(process.env.DEVICES ?? 4000);
const WORKERS = Number(process.env.WORKERS ?? 2);
const SECONDS = Number(process.env.SECONDS ?? 20);
const BATCH = Number(process.env.BATCH ?? 2000);
const INFLIGHT = Number(process.env.INFLIGHT ?? 4);
const RAW_SECONDS = 10;

/**
 * The raw loop: transactions of BATCH updates of the same shape as the gateway's, for RAW_SECONDS;
 * updates per second and this process's CPU per update.
 */
function rawSqlite(file: string, ids: number[]) {
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const update = db.prepare(
    'UPDATE devices SET cpu_temperature = ?, ram_used = ?, last_seen_at = ? WHERE id = ?',
  );
  const batch = db.transaction((rows: Array<[number, number, number, number]>) => {
    for (const row of rows) update.run(...row);
  });
  let written = 0;
  let next = 0;
  const cpu0 = ownCpuSeconds();
  const t0 = Date.now();
  while (Date.now() - t0 < RAW_SECONDS * 1000) {
    const now = Date.now();
    const rows: Array<[number, number, number, number]> = [];
    for (let i = 0; i < BATCH; i++, next++)
      rows.push([40 + (next % 150) / 10, next, now, ids[next % ids.length]!]);
    batch(rows);
    written += rows.length;
  }
  const seconds = (Date.now() - t0) / 1000;
  const cpuPerUpdate = (ownCpuSeconds() - cpu0) / written;
  db.close();
  return { rate: written / seconds, cpuPerUpdate };
}

/** The same loop against PostgreSQL in a throwaway schema (one UPDATE ... FROM unnest per batch, and row by row). */
async function rawPostgres(url: string, ids: number[]) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const schema = `bench_ingest_${process.pid}`;
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(
      `CREATE TABLE ${schema}.devices (id integer PRIMARY KEY, cpu_temperature double precision, ram_used bigint, last_seen_at bigint)`,
    );
    await client.query(`INSERT INTO ${schema}.devices (id) SELECT unnest($1::int[])`, [ids]);
    const run = async (write: (rows: number[][]) => Promise<void>) => {
      let written = 0;
      let next = 0;
      const t0 = Date.now();
      while (Date.now() - t0 < RAW_SECONDS * 1000) {
        const now = Date.now();
        const rows: number[][] = [];
        for (let i = 0; i < BATCH; i++, next++)
          rows.push([40 + (next % 150) / 10, next, now, ids[next % ids.length]!]);
        await client.query('BEGIN');
        await write(rows);
        await client.query('COMMIT');
        written += rows.length;
      }
      return written / ((Date.now() - t0) / 1000);
    };
    const rowByRow = await run(async (rows) => {
      for (const r of rows)
        await client.query({
          name: 'upd',
          text: `UPDATE ${schema}.devices SET cpu_temperature = $1, ram_used = $2, last_seen_at = $3 WHERE id = $4`,
          values: r,
        });
    });
    const unnest = await run(async (rows) => {
      await client.query(
        `UPDATE ${schema}.devices d SET cpu_temperature = u.t, ram_used = u.r, last_seen_at = u.s FROM unnest($1::float8[], $2::int8[], $3::int8[], $4::int[]) AS u(t, r, s, id) WHERE d.id = u.id`,
        [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
      );
    });
    return { rowByRow, unnest };
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}

/** Each panel's last stored sequence number (ram_used), read from the server's database. */
async function persistedRows(file: string, pgUrl: string | undefined) {
  const query = "SELECT device_key AS key, ram_used AS ram FROM devices WHERE device_key LIKE 'ING-%'";
  type Row = { key: string; ram: number | null };
  if (pgUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    return {
      read: async () =>
        (await client.query<{ key: string; ram: string | null }>(query)).rows.map((r): Row => ({
          key: r.key,
          ram: r.ram === null ? null : Number(r.ram),
        })),
      close: () => client.end(),
    };
  }
  const db = new SqliteDatabase(file, { readonly: true });
  const rows = db.prepare(query);
  return { read: async () => rows.all() as Row[], close: async () => void db.close() };
}

/** A SQLite file holding only the devices table, for the raw loop when the server ran on PostgreSQL. */
function rawFile(ids: number[]) {
  const file = path.join(tempDir('pf-ingest-raw-'), 'raw.db');
  const db = new SqliteDatabase(file);
  db.exec(
    'CREATE TABLE devices (id INTEGER PRIMARY KEY, cpu_temperature REAL, ram_used INTEGER, last_seen_at INTEGER)',
  );
  const insert = db.prepare('INSERT INTO devices (id) VALUES (?)');
  db.transaction(() => ids.forEach((id) => insert.run(id)))();
  db.close();
  return file;
}

runBenchmark('bench:ingest', 300_000, async () => {
  const started = Date.now();
  const loadBefore = loadAverage();
  console.log(
    `state-report ingest: ${DEVICES} panels in ${WORKERS} generator processes, ${INFLIGHT} reports in flight each, ${SECONDS} s of load; load average ${loadBefore}`,
  );
  const serverPg = process.env.INGEST_SERVER_PG;
  const server = await startServer(serverPg ? { DATABASE_URL: serverPg } : {});
  const pid = server.child.pid!;
  const operator = await Operator.signIn(server.url);
  const secret = await operator.enrollmentSecret();
  const workers = Array.from({ length: WORKERS }, () => DeviceWorker.start());
  const share = Math.ceil(DEVICES / WORKERS);
  await allWorkers(workers, (w) => ({
    op: 'enroll',
    mode: 'raw',
    serverUrl: server.url,
    secret,
    prefix: 'ING',
    from: w * share + 1,
    count: Math.min(share, DEVICES - w * share),
    concurrency: 25,
  }));
  const connected = sum(
    await allWorkers(workers, () => ({ op: 'connect', mqttUrl: server.mqttUrl, concurrency: 50 })),
    'connected',
    'ok',
  );
  if (connected !== DEVICES) throw new Error(`only ${connected} of ${DEVICES} panels connected`);
  await sleep(2000);

  const deviceRows = await persistedRows(server.dbFile, serverPg);
  const generatorPids = workers.map((w) => w.child.pid!);
  const cpu0 = cpuSeconds(pid);
  const gen0 = readAll(generatorPids);
  const t0 = Date.now();
  const replies = await allWorkers(workers, () => ({ op: 'ingest', seconds: SECONDS, inflight: INFLIGHT }));
  const tSent = Date.now();
  const cpuLoad = cpuSeconds(pid) - cpu0;
  const generator = shareBetween(gen0, readAll(generatorPids), (tSent - t0) / 1000);
  const loadDuring = loadAverage();
  const last: Record<string, number> = {};
  let sent = 0;
  for (const r of replies)
    if (r.op === 'ingested') {
      Object.assign(last, r.last);
      sent += r.sent;
    }
  let tPersisted: number | undefined;
  let behind = 0;
  while (Date.now() - tSent < 60_000) {
    behind = (await deviceRows.read()).filter(
      (row) => last[row.key] !== undefined && row.ram !== last[row.key],
    ).length;
    if (!behind) {
      tPersisted = Date.now();
      break;
    }
    await sleep(50);
  }
  await deviceRows.close();
  if (tPersisted === undefined) throw new Error(`${behind} device rows never reached their last report`);
  const cpuPersisted = cpuSeconds(pid) - cpu0;
  const product = sent / ((tPersisted - t0) / 1000);
  const ids = (await operator.deviceIds()).slice(0, DEVICES);
  await allWorkers(workers, () => ({ op: 'disconnect' }));
  await server.stop();

  const raw = rawSqlite(serverPg ? rawFile(ids) : server.dbFile, ids);
  const pgUrl = process.env.INGEST_PG;
  const pg = pgUrl ? await rawPostgres(pgUrl, ids) : undefined;

  printTable(`State-report ingest (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`, [
    ['load average (1, 5, 15 min) before / after the load', `${loadBefore} / ${loadDuring}`],
    [
      'PanelFleet: reports sent (QoS 1, acknowledged)',
      `${fmt(sent)} in ${fmt((tSent - t0) / 1000, 1)} s by ${fmt(DEVICES)} panels, ${INFLIGHT} in flight each`,
    ],
    ['  offered (acknowledged by the broker) per second', fmt(sent / ((tSent - t0) / 1000))],
    ['  last report persisted after', `${fmt((tPersisted - tSent) / 1000, 2)} s more`],
    ['  database of the server', serverPg ? 'PostgreSQL' : 'SQLite'],
    ['  persisted reports per second', `${fmt(product)} (goal 60,000 on SQLite)`],
    ['  server CPU during the load', `${fmt((cpuLoad / ((tSent - t0) / 1000)) * 100)}% of one core`],
    ['  server CPU per persisted report', `${fmt((cpuPersisted / sent) * 1e6, 1)} µs`],
    ['  load generator', describeGenerator(generator)],
    [`raw SQLite loop (transactions of ${BATCH} UPDATEs, same file)`, `${fmt(raw.rate)} updates/s`],
    ['  its CPU per update', `${fmt(raw.cpuPerUpdate * 1e6, 2)} µs`],
    ['ratio PanelFleet / raw SQLite, per second', `${fmt(product / raw.rate, 2)}x`],
    ['ratio PanelFleet / raw SQLite, CPU per report', `${fmt(cpuPersisted / sent / raw.cpuPerUpdate, 1)}x`],
    ...(pg
      ? ([
          ['raw PostgreSQL, row by row in transactions', `${fmt(pg.rowByRow)} updates/s`],
          ['raw PostgreSQL, one UPDATE ... FROM unnest per batch', `${fmt(pg.unnest)} updates/s`],
        ] as Array<[string, string]>)
      : []),
    ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
  ]);
});
