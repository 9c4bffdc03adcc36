/**
 * `npm run bench:connections`: as many connected panels as one server process allows (its limit
 * is 20,000 open files), memory per connection (RSS delta / connections) and connects per second,
 * against Debian's Mosquitto taking the same clients from the same device processes.
 * A connection here is the protocol's steps 1-2: CONNECT with credentials and last will,
 * SUBSCRIBE to the command topic, retained presence. The clients are the lean MQTT client
 * (lib/raw-mqtt.ts, raw mode), so that the load generator is not the limit: the table gives the
 * CPU of both sides per connect and the generator processes' share of a core, and flags a run in
 * which the busiest generator process used 85% of a core or more.
 *
 * Environment: DEVICES (default: the server's file limit minus the files it already holds,
 * minus a margin), WORKERS (8; at most 2,500 connections per process).
 */
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
  openFiles,
  printTable,
  rssBytes,
  runBenchmark,
  sleep,
  startMosquitto,
  startServer,
  sum,
} from './lib/harness.js';
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

async function connectAll(
  workers: DeviceWorker[],
  mqttUrl: string,
  pid: number,
  cpuOf: (pid: number) => number,
): Promise<Run> {
  const rssBefore = rssBytes(pid);
  const generatorPids = workers.map((w) => w.child.pid!);
  const generator0 = readAll(generatorPids);
  const cpu0 = cpuOf(pid);
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
    rssAfter: rssBytes(pid),
    files: openFiles(pid),
    cpu: cpuOf(pid) - cpu0,
    generator,
    ...(firstError ? { firstError } : {}),
  };
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

  const product = await connectAll(workers, server.mqttUrl, pid, cpuSeconds);
  console.log(
    `PanelFleet: ${product.connected} connected, ${product.failed} failed in ${fmt(product.seconds, 1)} s; ${product.files} of ${limit} files open${product.firstError ? `; first error: ${product.firstError}` : ''}`,
  );
  loads.push(loadAverage());
  await allWorkers(workers, () => ({ op: 'disconnect' }));
  await server.stop();

  const mosquitto = await startMosquitto();
  const mpid = mosquitto.child.pid!;
  const baseline = await connectAll(workers, mosquitto.mqttUrl, mpid, threadsCpuSeconds);
  console.log(
    `Mosquitto: ${baseline.connected} connected, ${baseline.failed} failed in ${fmt(baseline.seconds, 1)} s; ${baseline.files} of ${fileLimit(mpid)} files open`,
  );
  loads.push(loadAverage());
  await allWorkers(workers, () => ({ op: 'disconnect' }));
  await mosquitto.stop();

  const perConn = (r: Run) => (r.rssAfter - r.rssBefore) / Math.max(1, r.connected);
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
    ['load average (1, 5, 15 min): start / after PanelFleet / after Mosquitto', loads.join(' / ')],
    ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
  ]);
});
