/**
 * `npm run bench:two-instances` (issue 18): the label broadcast to 10,000 connected simulated
 * panels and state-report ingest, on one PanelFleet instance and then on two instances (separate
 * processes, one PostgreSQL database, one DATA_DIR, one pepper) behind the same Mosquitto. The
 * baseline is the one-instance run, in the same run, on the same database, broker and panels.
 *
 * Broadcast: the operator's instance (A) records and publishes the commands; the acknowledgements
 * are split between the instances by the broker's shared subscription. A round ends when every
 * command row is `succeeded`. Ingest: lean generator processes (lib/raw-mqtt.ts) keep INFLIGHT
 * QoS 1 state reports in flight per panel for SECONDS; a report counts as persisted when the
 * device row holds the last sequence number its panel sent (as `bench:ingest`).
 *
 * Environment: DEVICES (10000), WORKERS (4), ROUNDS (3), INGEST_DEVICES (4000), INGEST_WORKERS (2),
 * INFLIGHT (4), SECONDS (15), TWO_PG (postgres://postgres@127.0.0.1:5432/test: a throwaway
 * database is made on that server and dropped at the end).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  freshPostgres,
  allWorkers,
  cpuSeconds,
  DeviceWorker,
  fmt,
  loadAverage,
  machineDescription,
  onCleanup,
  printTable,
  runBenchmark,
  sleep,
  startMosquitto,
  startServer,
  sum,
  type ServerProcess,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';
import type { WorkerRequest } from './lib/worker-protocol.js';

const DEVICES = Number(process.env.DEVICES ?? 10_000);
const WORKERS = Number(process.env.WORKERS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const INGEST_DEVICES = Number(process.env.INGEST_DEVICES ?? 4000);
const INGEST_WORKERS = Number(process.env.INGEST_WORKERS ?? 2);
const INFLIGHT = Number(process.env.INFLIGHT ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 15);
const ADMIN_URL = process.env.TWO_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROUND_TIMEOUT_MS = 120_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Broadcast {
  ms: number[];
  cpu: number[];
}

interface Ingest {
  sent: number;
  offeredPerSecond: number;
  persistedPerSecond: number;
  catchUpS: number;
  /** Panels whose row does not hold their last report once writing stopped. */
  behind: number;
  cpuPercent: number[];
  load: string;
}

runBenchmark('bench:two-instances', 900_000, async () => {
  const started = Date.now();
  const loads = [loadAverage()];
  console.log(
    `two instances: broadcast to ${DEVICES} panels (${ROUNDS} rounds), ingest from ${INGEST_DEVICES} panels for ${SECONDS} s, on one then two instances; load average ${loads[0]}`,
  );
  const databaseUrl = await freshPostgres(ADMIN_URL, 'two');
  const broker = await startMosquitto();
  // The shared machine is loaded: waits for a pooled connection longer than the default 3 s are
  // normal while 10,000 panels' connection-time reports are written.
  const shared = {
    DATABASE_URL: databaseUrl,
    MQTT_URL: broker.mqttUrl,
    DB_CONNECT_TIMEOUT_MS: '30000',
    DB_QUERY_TIMEOUT_MS: '60000',
    LOG_LEVEL: 'error',
  };
  // The servers' error log (pino JSON on stdout), for a run that fails.
  const errorLog = path.join(os.tmpdir(), `pf-bench-two-${process.pid}.log`);
  const keepErrors = (server: ServerProcess) =>
    server.child.stdout!.on('data', (chunk: Buffer) => fs.appendFileSync(errorLog, chunk));
  console.log(`server errors, if any, go to ${errorLog}`);
  const a = await startServer(shared);
  keepErrors(a);
  const servers: ServerProcess[] = [a];
  const serverCpu = () => servers.map((s) => cpuSeconds(s.child.pid!));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  onCleanup(() => db.end());

  const operator = await Operator.signIn(a.url);
  const secret = await operator.enrollmentSecret();
  const generators = Array.from({ length: INGEST_WORKERS }, () => DeviceWorker.start());
  const ingestShare = Math.ceil(INGEST_DEVICES / INGEST_WORKERS);
  await allWorkers(generators, (w) => ({
    op: 'enroll',
    mode: 'raw',
    serverUrl: a.url,
    secret,
    prefix: 'TWOING',
    from: w * ingestShare + 1,
    count: Math.min(ingestShare, INGEST_DEVICES - w * ingestShare),
    concurrency: 25,
  }));
  // The generators first: their panels are enrolled before the 10,000 others load the server.
  const generating = sum(
    await allWorkers(generators, () => ({ op: 'connect', mqttUrl: broker.mqttUrl, concurrency: 50 })),
    'connected',
    'ok',
  );
  if (generating !== INGEST_DEVICES)
    throw new Error(`only ${generating} of ${INGEST_DEVICES} generators connected`);
  const panels = Array.from({ length: WORKERS }, () => DeviceWorker.start());
  const share = Math.ceil(DEVICES / WORKERS);
  const inPanels = (make: (w: number) => WorkerRequest) => allWorkers(panels, make);
  const t = Date.now();
  await inPanels((w) => ({
    op: 'enroll',
    mode: 'panel',
    serverUrl: a.url,
    secret,
    prefix: 'TWO',
    from: w * share + 1,
    count: Math.min(share, DEVICES - w * share),
    concurrency: 25,
  }));
  const connected = sum(
    await inPanels(() => ({ op: 'connect', mqttUrl: broker.mqttUrl, concurrency: 50 })),
    'connected',
    'ok',
  );
  console.log(`${connected} panels enrolled and connected in ${fmt((Date.now() - t) / 1000, 1)} s`);
  if (connected !== DEVICES) throw new Error(`only ${connected} of ${DEVICES} panels connected`);
  const ids = (
    await db.query<{ id: number }>("SELECT id FROM devices WHERE device_key LIKE 'TWO-%' ORDER BY id")
  ).rows.map((r) => r.id);
  if (ids.length !== DEVICES) throw new Error(`the server lists ${ids.length} devices, expected ${DEVICES}`);
  const labelId = await operator.label('bench two', ids);

  await sleep(3000); // connection-time reports written before measuring

  let round = 0;
  async function broadcast(label: string): Promise<Broadcast> {
    const out: Broadcast = { ms: [], cpu: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const value = String(10 + round++);
      const cpu0 = serverCpu();
      const t0 = Date.now();
      const reply = await operator.request('POST', '/sendData/sendCommandByTagIds', {
        tagIds: String(labelId),
        order: '00',
        value,
      });
      if (reply.hhtStatus !== 'success') throw new Error(`label command refused: ${JSON.stringify(reply)}`);
      let end: number | undefined;
      let last: Array<{ status: string; n: string; last: string }> = [];
      while (Date.now() - t0 < ROUND_TIMEOUT_MS) {
        last = (
          await db.query<{ status: string; n: string; last: string }>(
            "SELECT status, count(*) AS n, max(updated_at) AS last FROM commands WHERE order_code = '00' AND value = $1 GROUP BY status",
            [value],
          )
        ).rows;
        const done = last.find((row) => row.status === 'succeeded');
        if (done && Number(done.n) === DEVICES) {
          end = Number(done.last);
          break;
        }
        await sleep(50);
      }
      if (end === undefined)
        throw new Error(
          `${label} round ${r + 1}: not every acknowledgement recorded: ${JSON.stringify(last)}`,
        );
      out.ms.push(end - t0);
      const cpu1 = serverCpu();
      out.cpu.push(cpu1.reduce((n, c, i) => n + c - (cpu0[i] ?? 0), 0));
      console.log(`${label} round ${r + 1}: ${end - t0} ms to the last recorded acknowledgement`);
      await sleep(1500);
    }
    return out;
  }

  async function ingest(label: string): Promise<Ingest> {
    const cpu0 = serverCpu();
    const t0 = Date.now();
    const replies = await allWorkers(generators, () => ({
      op: 'ingest',
      seconds: SECONDS,
      inflight: INFLIGHT,
    }));
    const tSent = Date.now();
    const cpu1 = serverCpu();
    const load = loadAverage();
    const last: Record<string, number> = {};
    let sent = 0;
    for (const r of replies)
      if (r.op === 'ingested') {
        Object.assign(last, r.last);
        sent += r.sent;
      }
    // Done when every row holds its panel's last report, or when no row changed for 5 s (then the
    // rows left behind hold an older report: dropped under load, or written out of order).
    let tPersisted: number | undefined;
    let behind = 0;
    let snapshot = '';
    let stillSince = Date.now();
    while (Date.now() - tSent < 90_000) {
      const rows = (
        await db.query<{ key: string; ram: string | null }>(
          "SELECT device_key AS key, ram_used AS ram FROM devices WHERE device_key LIKE 'TWOING-%' ORDER BY device_key",
        )
      ).rows;
      behind = rows.filter((row) => last[row.key] !== undefined && Number(row.ram) !== last[row.key]).length;
      const now = rows.map((r) => r.ram).join(',');
      if (now !== snapshot) {
        snapshot = now;
        stillSince = Date.now();
      }
      if (!behind) {
        tPersisted = Date.now();
        break;
      }
      if (Date.now() - stillSince >= 5000) {
        tPersisted = stillSince;
        break;
      }
      await sleep(100);
    }
    if (tPersisted === undefined)
      throw new Error(`${label}: ${behind} device rows still changing after 90 s`);
    const seconds = (tSent - t0) / 1000;
    const result = {
      sent,
      offeredPerSecond: sent / seconds,
      persistedPerSecond: sent / ((tPersisted - t0) / 1000),
      catchUpS: (tPersisted - tSent) / 1000,
      behind,
      cpuPercent: cpu1.map((c, i) => ((c - (cpu0[i] ?? 0)) / seconds) * 100),
      load,
    };
    console.log(
      `${label} ingest: ${fmt(result.persistedPerSecond)} reports/s handled, ${behind} rows without their panel's last report`,
    );
    return result;
  }

  const oneBroadcast = await broadcast('one instance');
  const oneIngest = await ingest('one instance');
  loads.push(loadAverage());

  // B joins: same database, DATA_DIR and pepper; the broker splits the device traffic between them.
  const b = await startServer({ ...shared, DATA_DIR: a.dataDir });
  keepErrors(b);
  servers.push(b);
  await sleep(5000); // B's presence rebuilt from the broker's retained messages
  const twoBroadcast = await broadcast('two instances');
  const twoIngest = await ingest('two instances');
  loads.push(loadAverage());

  const stats = await inPanels(() => ({ op: 'stats' }));
  await allWorkers(generators, () => ({ op: 'disconnect' }));
  await inPanels(() => ({ op: 'disconnect' }));
  await b.stop();
  await a.stop();
  await broker.stop();

  const m1 = median(oneBroadcast.ms);
  const m2 = median(twoBroadcast.ms);
  printTable(
    `Two instances: label broadcast and state ingest (${new Date().toISOString().slice(0, 10)}; ${machineDescription()}; 2 cores shared with other sessions)`,
    [
      [
        `broadcast to ${fmt(DEVICES)} panels, one instance, API call -> last ack in DB (ms)`,
        oneBroadcast.ms.map((x) => fmt(x)).join(' / '),
      ],
      ['  server CPU per round (s)', oneBroadcast.cpu.map((x) => fmt(x, 2)).join(' / ')],
      [`broadcast, two instances (command through A) (ms)`, twoBroadcast.ms.map((x) => fmt(x)).join(' / ')],
      ['  both servers CPU per round (s)', twoBroadcast.cpu.map((x) => fmt(x, 2)).join(' / ')],
      ['median two / one', `${fmt(m2)} ms / ${fmt(m1)} ms = ${fmt(m2 / m1, 2)}x`],
      [
        `ingest, one instance (${fmt(INGEST_DEVICES)} panels, ${INFLIGHT} in flight each)`,
        `${fmt(oneIngest.persistedPerSecond)} persisted/s (offered ${fmt(oneIngest.offeredPerSecond)}/s, writing ended ${fmt(oneIngest.catchUpS, 2)} s after the load; ${oneIngest.behind} rows without their last report; server CPU ${oneIngest.cpuPercent.map((c) => `${fmt(c)}%`).join(' + ')})`,
      ],
      [
        'ingest, two instances',
        `${fmt(twoIngest.persistedPerSecond)} persisted/s (offered ${fmt(twoIngest.offeredPerSecond)}/s, writing ended ${fmt(twoIngest.catchUpS, 2)} s after the load; ${twoIngest.behind} rows without their last report; servers CPU ${twoIngest.cpuPercent.map((c) => `${fmt(c)}%`).join(' + ')})`,
      ],
      ['ingest two / one', `${fmt(twoIngest.persistedPerSecond / oneIngest.persistedPerSecond, 2)}x`],
      [
        'commands executed by panels',
        `${fmt(sum(stats, 'stats', 'executed'))} of ${fmt(DEVICES * ROUNDS * 2)}, ${sum(stats, 'stats', 'duplicates')} repeated deliveries`,
      ],
      [
        'load average (1, 5, 15 min): start / after one / after two',
        loads.join(' / ') + ` (during ingest: ${oneIngest.load} / ${twoIngest.load})`,
      ],
      ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
    ],
  );
});
