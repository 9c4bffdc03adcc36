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
 */
import SqliteDatabase from 'better-sqlite3';
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
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const DEVICES = Number(process.env.DEVICES ?? 4000);
const WORKERS = Number(process.env.WORKERS ?? 2);
const SECONDS = Number(process.env.SECONDS ?? 20);
const BATCH = Number(process.env.BATCH ?? 2000);
const INFLIGHT = Number(process.env.INFLIGHT ?? 4);
const RAW_SECONDS = 10;

/** The raw loop: transactions of BATCH updates of the same shape as the gateway's, for RAW_SECONDS. */
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
  db.close();
  return written / seconds;
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

runBenchmark('bench:ingest', 300_000, async () => {
  const started = Date.now();
  const loadBefore = loadAverage();
  console.log(
    `state-report ingest: ${DEVICES} panels in ${WORKERS} generator processes, ${INFLIGHT} reports in flight each, ${SECONDS} s of load; load average ${loadBefore}`,
  );
  const server = await startServer();
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

  const db = new SqliteDatabase(server.dbFile, { readonly: true });
  const rows = db.prepare(
    "SELECT device_key AS key, ram_used AS ram FROM devices WHERE device_key LIKE 'ING-%'",
  );
  const generatorCpu = () => workers.reduce((n, w) => n + cpuSeconds(w.child.pid!), 0);
  const cpu0 = cpuSeconds(pid);
  const gen0 = generatorCpu();
  const t0 = Date.now();
  const replies = await allWorkers(workers, () => ({ op: 'ingest', seconds: SECONDS, inflight: INFLIGHT }));
  const tSent = Date.now();
  const cpuLoad = cpuSeconds(pid) - cpu0;
  const genLoad = generatorCpu() - gen0;
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
    behind = (rows.all() as Array<{ key: string; ram: number | null }>).filter(
      (row) => last[row.key] !== undefined && row.ram !== last[row.key],
    ).length;
    if (!behind) {
      tPersisted = Date.now();
      break;
    }
    await sleep(50);
  }
  db.close();
  if (tPersisted === undefined) throw new Error(`${behind} device rows never reached their last report`);
  const product = sent / ((tPersisted - t0) / 1000);
  const ids = (await operator.deviceIds()).slice(0, DEVICES);
  await allWorkers(workers, () => ({ op: 'disconnect' }));
  await server.stop();

  const raw = rawSqlite(server.dbFile, ids);
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
    ['  persisted reports per second', `${fmt(product)} (goal 10,000)`],
    [
      '  server CPU during the load',
      `${fmt((cpuLoad / ((tSent - t0) / 1000)) * 100)}% of one core; generators ${fmt((genLoad / ((tSent - t0) / 1000)) * 100)}% (same 2 cores)`,
    ],
    [`raw SQLite loop (transactions of ${BATCH} UPDATEs, same file)`, `${fmt(raw)} updates/s`],
    ['ratio PanelFleet / raw SQLite', `${fmt(product / raw, 2)}x`],
    ...(pg
      ? ([
          ['raw PostgreSQL, row by row in transactions', `${fmt(pg.rowByRow)} updates/s`],
          ['raw PostgreSQL, one UPDATE ... FROM unnest per batch', `${fmt(pg.unnest)} updates/s`],
        ] as Array<[string, string]>)
      : []),
    ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
  ]);
});
