/**
 * `npm run bench:connections`: as many connected panels as one server process allows (its limit
 * is 20,000 open files), memory per connection (RSS delta / connections) and connects per second,
 * against Debian's Mosquitto taking the same clients from the same device processes.
 * A connection here is the protocol's steps 1-2: CONNECT with credentials and last will,
 * SUBSCRIBE to the command topic, retained presence. The clients are the lean MQTT client
 * (lib/raw-mqtt.ts, raw mode), so that the load generator is not the limit: the table gives the
 * CPU of both sides per connect and the generator processes' share of a core, and flags a run in
 * which the busiest generator process used 85% of a core or more. A third half runs PanelFleet
 * with Mosquitto as its broker (MQTT_URL, credentials provisioned into dynamic-security), the
 * deployment for large fleets, counting Mosquitto's and the server's CPU and memory together.
 *
 * Environment: DEVICES (default: the server's file limit minus the files it already holds,
 * minus a margin), WORKERS (8; at most 2,500 connections per process).
 */
import fs from 'node:fs';
import {
  describeGenerator,
  readAll,
  shareBetween,
  threadsCpuSeconds,
  type GeneratorShare,
} from './lib/cpu.js';
import {
  allWorkers,
  cpuSeconds,
  DeviceWorker,
  fileLimit,
  fmt,
  loadAverage,
  machineDescription,
  onCleanup,
  openFiles,
  printTable,
  rssBytes,
  runBenchmark,
  sleep,
  startMosquitto,
  stopChild,
  startServer,
  sum,
} from './lib/harness.js';
import { startDynsecMosquitto } from '../apps/server/test/mosquitto-helpers.js';
import { Operator } from './lib/operator.js';
import type { WorkerReply } from './lib/worker-protocol.js';

const WORKERS = Number(process.env.WORKERS ?? 8);
/** Files the server may still need besides sockets (SQLite, an HTTP request or two). */
const MARGIN = 40;

interface Run {
  connected: number;
  failed: number;
  seconds: number;
  rssBefore: number;
  rssAfter: number;
  files: number;
  /** CPU seconds of the broker's process over the connects and the 3 s after them. */
  cpu: number;
  generator: GeneratorShare;
  firstError?: string;
}

/** The processes a half's connections cost: the broker holding them, and the server beside it if any. */
interface Side {
  /** The process that holds the connections (its open files are counted). */
  brokerPid: number;
  cpu(): number;
  rss(): number;
}

async function connectAll(workers: DeviceWorker[], mqttUrl: string, side: Side): Promise<Run> {
  const pid = side.brokerPid;
  const rssBefore = side.rss();
  const generatorPids = workers.map((w) => w.child.pid!);
  const generator0 = readAll(generatorPids);
  const cpu0 = side.cpu();
  const t0 = Date.now();
  const base = openFiles(pid);
  // Connections held every 20 s: shows whether the connect rate holds up as the broker fills.
  const samples: string[] = [];
  const sampler = setInterval(
    () => samples.push(`${Math.round((Date.now() - t0) / 1000)}s:${openFiles(pid) - base}`),
    20_000,
  );
  const replies = await allWorkers(workers, () => ({ op: 'connect', mqttUrl, concurrency: 50 }));
  const seconds = (Date.now() - t0) / 1000;
  const generator = shareBetween(generator0, readAll(generatorPids), seconds);
  clearInterval(sampler);
  if (samples.length) console.log(`  connections held over time: ${samples.join(' ')}`);
  await sleep(3000); // let the broker finish what the last connections started
  const firstError = replies.find(
    (r): r is Extract<WorkerReply, { op: 'connected' }> => r.op === 'connected' && r.firstError !== undefined,
  )?.firstError;
  return {
    connected: sum(replies, 'connected', 'ok'),
    failed: sum(replies, 'connected', 'failed'),
    seconds,
    rssBefore,
    rssAfter: side.rss(),
    files: openFiles(pid),
    cpu: side.cpu() - cpu0,
    generator,
    ...(firstError ? { firstError } : {}),
  };
}

/**
 * The deployment for large fleets: PanelFleet with an external Mosquitto (its dynamic-security
 * plugin holding each panel's credentials, provisioned at enrollment). The connections are
 * Mosquitto's; the server only follows presence. Both processes' CPU and memory are counted.
 */
async function withMosquittoBroker(workerCount: number, devices: number, share: number): Promise<Run> {
  // Workers of their own: the others hold the first halves' panels, unknown to this server.
  const workers = Array.from({ length: workerCount }, () => DeviceWorker.start());
  const password = 'bench-broker-0123456789';
  const broker = await startDynsecMosquitto(password);
  onCleanup(() => void broker.child.kill('SIGTERM'));
  const server = await startServer({
    MQTT_URL: `mqtt://panelfleet-server:${password}@127.0.0.1:${broker.port}`,
    MQTT_PROVISION: 'dynsec',
  });
  const operator = await Operator.signIn(server.url);
  const secret = await operator.enrollmentSecret();
  await allWorkers(workers, (w) => ({
    op: 'enroll',
    mode: 'raw',
    serverUrl: server.url,
    secret,
    prefix: 'CAPM',
    from: w * share + 1,
    count: Math.max(0, Math.min(share, devices - w * share)),
    concurrency: 10,
  }));
  const serverPid = server.child.pid!;
  const brokerPid = broker.child.pid!;
  const run = await connectAll(workers, `mqtt://127.0.0.1:${broker.port}`, {
    brokerPid,
    cpu: () => threadsCpuSeconds(brokerPid) + cpuSeconds(serverPid),
    rss: () => rssBytes(brokerPid) + rssBytes(serverPid),
  });
  console.log(
    `PanelFleet with Mosquitto: ${run.connected} connected, ${run.failed} failed in ${fmt(run.seconds, 1)} s${run.firstError ? `; first error: ${run.firstError}` : ''}`,
  );
  await allWorkers(workers, () => ({ op: 'disconnect' }));
  await server.stop();
  await Promise.all(workers.map((w) => stopChild(w.child, 3000)));
  broker.child.kill('SIGTERM');
  fs.rmSync(broker.dir, { recursive: true, force: true });
  return run;
}

// At the full 19,9xx connections the embedded broker needs about 4 minutes to take them (see
// docs/benchmarks.md), so this run takes about 6 minutes in all.
runBenchmark('bench:connections', 600_000, async () => {
  const started = Date.now();
  const loads = [loadAverage()];
  const server = await startServer();
  const pid = server.child.pid!;
  const operator = await Operator.signIn(server.url);
  const secret = await operator.enrollmentSecret();
  const limit = fileLimit(pid);
  const devices = Number(process.env.DEVICES ?? limit - openFiles(pid) - MARGIN);
  if (devices > WORKERS * 2500)
    throw new Error(`${devices} devices need more than ${WORKERS} worker processes of 2,500`);
  console.log(
    `connection capacity: server file limit ${limit}, ${openFiles(pid)} files open at start -> ${devices} panels in ${WORKERS} device processes`,
  );

  const workers = Array.from({ length: WORKERS }, () => DeviceWorker.start());
  const share = Math.ceil(devices / WORKERS);
  let t = Date.now();
  await allWorkers(workers, (w) => ({
    op: 'enroll',
    mode: 'raw',
    serverUrl: server.url,
    secret,
    prefix: 'CAP',
    from: w * share + 1,
    count: Math.max(0, Math.min(share, devices - w * share)),
    concurrency: 10,
  }));
  console.log(
    `enrolled ${devices} panels over HTTP in ${fmt((Date.now() - t) / 1000, 1)} s; waiting for idle HTTP connections to close`,
  );
  for (t = Date.now(); openFiles(pid) > limit - devices - MARGIN + 5 && Date.now() - t < 15_000;)
    await sleep(250);

  const product = await connectAll(workers, server.mqttUrl, {
    brokerPid: pid,
    cpu: () => cpuSeconds(pid),
    rss: () => rssBytes(pid),
  });
  console.log(
    `PanelFleet: ${product.connected} connected, ${product.failed} failed in ${fmt(product.seconds, 1)} s; ${product.files} of ${limit} files open${product.firstError ? `; first error: ${product.firstError}` : ''}`,
  );
  loads.push(loadAverage());
  await allWorkers(workers, () => ({ op: 'disconnect' }));
  await server.stop();

  const mosquitto = await startMosquitto();
  const mpid = mosquitto.child.pid!;
  const baseline = await connectAll(workers, mosquitto.mqttUrl, {
    brokerPid: mpid,
    cpu: () => threadsCpuSeconds(mpid),
    rss: () => rssBytes(mpid),
  });
  console.log(
    `Mosquitto: ${baseline.connected} connected, ${baseline.failed} failed in ${fmt(baseline.seconds, 1)} s; ${baseline.files} of ${fileLimit(mpid)} files open`,
  );
  loads.push(loadAverage());
  await allWorkers(workers, () => ({ op: 'disconnect' }));
  await mosquitto.stop();

  await Promise.all(workers.map((w) => stopChild(w.child, 3000)));
  const external = await withMosquittoBroker(WORKERS, devices, share);
  loads.push(loadAverage());

  const perConn = (r: Run) => (r.rssAfter - r.rssBefore) / Math.max(1, r.connected);
  const externalRow = (r: Run) =>
    `${fmt(r.connected)} held (${r.failed} failed); ${fmt(rate(r))} connects/s (${fmt(rate(r) / rate(baseline), 2)}x Mosquitto alone); ${fmt(cpuPerConnect(r) * 1e6)} µs of CPU per connect, Mosquitto's and the server's together; ${fmt(perConn(r) / 1024, 1)} KiB per connection, both processes' RSS growth; generator: ${describeGenerator(r.generator)}`;
  const rate = (r: Run) => r.connected / r.seconds;
  const cpuPerConnect = (r: Run) => r.cpu / Math.max(1, r.connected);
  printTable(`Connection capacity (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`, [
    ['', 'PanelFleet (Aedes, embedded) | Mosquitto 2.0.11'],
    [
      'connections held',
      `${fmt(product.connected)} (${product.failed} failed) | ${fmt(baseline.connected)} (${baseline.failed} failed)`,
    ],
    ['open files at the end (limit 20,000)', `${fmt(product.files)} | ${fmt(baseline.files)}`],
    [
      'connects per second',
      `${fmt(rate(product))} | ${fmt(rate(baseline))}  (PanelFleet at ${fmt(rate(product) / rate(baseline), 2)}x Mosquitto's rate; goal >= 0.5x)`,
    ],
    [
      'broker CPU per connect (µs)',
      `${fmt(cpuPerConnect(product) * 1e6)} | ${fmt(cpuPerConnect(baseline) * 1e6)}  (ratio ${fmt(cpuPerConnect(product) / cpuPerConnect(baseline), 1)}x; goal <= 400 µs)`,
    ],
    ['load generator, PanelFleet half', describeGenerator(product.generator)],
    ['load generator, Mosquitto half', describeGenerator(baseline.generator)],
    [
      'RSS before -> after (MiB)',
      `${fmt(product.rssBefore / 2 ** 20)} -> ${fmt(product.rssAfter / 2 ** 20)} | ${fmt(baseline.rssBefore / 2 ** 20)} -> ${fmt(baseline.rssAfter / 2 ** 20)}`,
    ],
    [
      'memory per connection (KiB)',
      `${fmt(perConn(product) / 1024, 1)} | ${fmt(perConn(baseline) / 1024, 1)}  (ratio ${fmt(perConn(product) / perConn(baseline), 1)}x; goal <= 6 KiB)`,
    ],
    ['PanelFleet with Mosquitto as its broker (MQTT_URL, MQTT_PROVISION=dynsec)', externalRow(external)],
    [
      'load average (1, 5, 15 min): start / after PanelFleet / after Mosquitto / after PanelFleet with Mosquitto',
      loads.join(' / '),
    ],
    ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
  ]);
});
