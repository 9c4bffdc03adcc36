/**
 * `npm run bench:broadcast`: a label command to 10,000 connected simulated panels, from the API
 * call to the last acknowledgement recorded in the database, against Debian's Mosquitto
 * delivering the same command envelopes to the same 10,000 panels, fed by a lean publisher
 * (lib/raw-mqtt.ts: QoS 0 packets built into buffers, written in one corked burst) that collects
 * the acknowledgements on the same connection. Both runs use the same device worker processes (the
 * simulator's SimulatedPanel, 4 processes x 2,500) and the same number of rounds, and both are
 * timed on the wall clock every process shares (Date.now: the server stamps the last
 * acknowledgement's row, the publisher its arrival). CPU of both sides per round and per command,
 * and the load generators' share of a core: a round where the panels' processes or the publisher
 * used 85% of a core or more is flagged, since they and not the broker then set the pace.
 *
 * Environment: DEVICES (10000), WORKERS (4), ROUNDS (7: on this machine a 3-round median swings by
 * a third); BROKER=external runs PanelFleet with MQTT_URL on a Mosquitto of its own (the server as a privileged client) instead of its embedded broker.
 */
import crypto from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { device } from '@panelfleet/contract';
import { ownCpuSeconds, readAll, shareBetween, threadsCpuSeconds, type GeneratorShare } from './lib/cpu.js';
import { RawMqttClient } from './lib/raw-mqtt.js';
import {
  allWorkers,
  cpuSeconds,
  DeviceWorker,
  sum,
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
} from './lib/harness.js';
import { Operator } from './lib/operator.js';
import type { WorkerReply, WorkerRequest } from './lib/worker-protocol.js';

const DEVICES = Number(process.env.DEVICES ?? 10_000);
const WORKERS = Number(process.env.WORKERS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const ROUND_TIMEOUT_MS = 90_000;
const EXTERNAL = process.env.BROKER === 'external';

interface Round {
  ms: number;
  apiMs: number;
  cpu: number;
  /** The panel processes' share of a core (the busiest) over the round. */
  panels: GeneratorShare;
  /** The lean publisher's CPU over the round (baseline only), as a share of a core. */
  publisher?: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Which rounds a load generator (panel processes or the publisher) saturated in, or "none". */
function saturatedRounds(product: Round[], baseline: Round[]) {
  const flagged = [
    ...product.flatMap((r, i) => (r.panels.saturated ? [`PanelFleet ${i + 1} (panels)`] : [])),
    ...baseline.flatMap((r, i) => [
      ...(r.panels.saturated ? [`Mosquitto ${i + 1} (panels)`] : []),
      ...((r.publisher ?? 0) >= 0.85 ? [`Mosquitto ${i + 1} (publisher)`] : []),
    ]),
  ];
  return flagged.length ? `FLAGGED: ${flagged.join(', ')}` : 'none';
}

runBenchmark('bench:broadcast', 900_000, async () => {
  const started = Date.now();
  const loads = [loadAverage()];
  console.log(
    `label broadcast: ${DEVICES} panels in ${WORKERS} device processes, ${ROUNDS} rounds per broker; load average ${loads[0]}`,
  );
  const productBroker = EXTERNAL ? await startMosquitto() : undefined;
  const server = await startServer(productBroker ? { MQTT_URL: productBroker.mqttUrl } : {});
  const panelMqttUrl = productBroker?.mqttUrl ?? server.mqttUrl;
  /** CPU of everything PanelFleet runs on: the server, and the external broker when there is one. */
  const productCpu = () =>
    cpuSeconds(server.child.pid!) + (productBroker ? cpuSeconds(productBroker.child.pid!) : 0);
  const operator = await Operator.signIn(server.url);
  const secret = await operator.enrollmentSecret();
  const workers = Array.from({ length: WORKERS }, () => DeviceWorker.start());
  const share = Math.ceil(DEVICES / WORKERS);
  const all = (make: (w: number) => WorkerRequest) => allWorkers(workers, make);

  let t = Date.now();
  await all((w) => ({
    op: 'enroll',
    mode: 'panel',
    serverUrl: server.url,
    secret,
    prefix: 'BC',
    from: w * share + 1,
    count: Math.min(share, DEVICES - w * share),
    concurrency: 25,
  }));
  console.log(`enrolled ${DEVICES} panels over HTTP in ${fmt((Date.now() - t) / 1000, 1)} s`);
  t = Date.now();
  const connected = await all(() => ({ op: 'connect', mqttUrl: panelMqttUrl, concurrency: 50 }));
  const ok = sum(connected, 'connected', 'ok');
  console.log(
    `${ok} panels connected to the server in ${fmt((Date.now() - t) / 1000, 1)} s (server: ${openFiles(server.child.pid!)} open files)`,
  );
  if (ok !== DEVICES)
    throw new Error(
      `only ${ok} of ${DEVICES} panels connected: ${JSON.stringify(connected.find((r) => r.op === 'connected' && r.failed))}`,
    );

  const ids = await operator.deviceIds();
  const labelId = await operator.label('bench all', ids);
  if (ids.length !== DEVICES) throw new Error(`the server lists ${ids.length} devices, expected ${DEVICES}`);
  await sleep(3000); // connection-time reports (state, apps) written before measuring

  const db = new SqliteDatabase(server.dbFile, { readonly: true });
  const progress = db.prepare(
    "SELECT status, count(*) AS n, max(updated_at) AS last FROM commands WHERE order_code = '00' AND value = ? GROUP BY status",
  );
  const panelPids = workers.map((w) => w.child.pid!);
  const serverRounds: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const value = String(41 + r);
    const cpu0 = productCpu();
    const panels0 = readAll(panelPids);
    const t0 = Date.now();
    const reply = await operator.request('POST', '/sendData/sendCommandByTagIds', {
      tagIds: String(labelId),
      order: '00',
      value,
    });
    const apiMs = Date.now() - t0;
    if (reply.hhtStatus !== 'success') throw new Error(`label command refused: ${JSON.stringify(reply)}`);
    let end: number | undefined;
    let last: Array<{ status: string; n: number; last: number }> = [];
    while (Date.now() - t0 < ROUND_TIMEOUT_MS) {
      last = progress.all(value) as typeof last;
      const done = last.find((row) => row.status === 'succeeded');
      if (done && done.n === DEVICES) {
        end = done.last;
        break;
      }
      await sleep(20);
    }
    if (end === undefined)
      throw new Error(
        `round ${r + 1}: not every acknowledgement recorded within ${ROUND_TIMEOUT_MS / 1000} s: ${JSON.stringify(last)}`,
      );
    serverRounds.push({
      ms: end - t0,
      apiMs,
      cpu: productCpu() - cpu0,
      panels: shareBetween(panels0, readAll(panelPids), (Date.now() - t0) / 1000),
    });
    console.log(
      `PanelFleet round ${r + 1}: ${end - t0} ms to the last recorded acknowledgement (API reply after ${apiMs} ms)`,
    );
    await sleep(1500);
  }
  db.close();
  loads.push(loadAverage());
  const serverRss = rssBytes(server.child.pid!) + (productBroker ? rssBytes(productBroker.child.pid!) : 0);
  const afterServer = await Promise.all(workers.map((w) => w.request({ op: 'stats' })));
  await all(() => ({ op: 'disconnect' }));
  await server.stop();
  await productBroker?.stop();

  // Baseline: the same panels, the same envelopes, raw Mosquitto; a publisher counts the acknowledgements.
  const mosquitto = await startMosquitto();
  t = Date.now();
  const again = await all(() => ({ op: 'connect', mqttUrl: mosquitto.mqttUrl, concurrency: 50 }));
  const okAgain = sum(again, 'connected', 'ok');
  console.log(`${okAgain} panels connected to Mosquitto in ${fmt((Date.now() - t) / 1000, 1)} s`);
  if (okAgain !== DEVICES) throw new Error(`only ${okAgain} of ${DEVICES} panels connected to Mosquitto`);
  const keys = Array.from({ length: WORKERS }, (_, w) =>
    Array.from(
      { length: Math.min(share, DEVICES - w * share) },
      (_, i) => `BC-${String(w * share + 1 + i).padStart(5, '0')}`,
    ),
  ).flat();
  const mosquittoUrl = new URL(mosquitto.mqttUrl);
  const publisher = new RawMqttClient();
  await publisher.connect({
    host: mosquittoUrl.hostname,
    port: Number(mosquittoUrl.port),
    clientId: 'bench-publisher',
    username: 'bench',
    password: 'bench',
    keepaliveSeconds: 60,
  });
  let waiting = new Set<string>();
  let lastAck = 0;
  let onDone: (() => void) | undefined;
  publisher.onMessage = (_topic, payload) => {
    const ack = JSON.parse(payload.toString('utf8')) as { id: string; result: string };
    if (ack.result === 'succeeded' && waiting.delete(ack.id)) {
      lastAck = Date.now();
      if (!waiting.size) onDone?.();
    }
  };
  await publisher.subscribe(`${device.TOPIC_ROOT}/+/ack`);
  await sleep(1000);
  const baseRounds: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const now = Date.now();
    const envelopes = keys.map((key) => ({
      topic: device.commandTopic(key),
      envelope: {
        v: device.PROTOCOL_VERSION,
        id: crypto.randomUUID(),
        order: '00',
        value: 61 + r,
        expiresAt: now + 600_000,
        ttlMs: 600_000,
      },
    }));
    waiting = new Set(envelopes.map((e) => e.envelope.id));
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<void>((resolve, reject) => {
      onDone = resolve;
      timer = setTimeout(
        () => reject(new Error(`Mosquitto round ${r + 1}: ${waiting.size} acknowledgements missing`)),
        ROUND_TIMEOUT_MS,
      );
    });
    const cpu0 = threadsCpuSeconds(mosquitto.child.pid!);
    const panels0 = readAll(panelPids);
    const own0 = ownCpuSeconds();
    const t0 = Date.now();
    // The command layer publishes at QoS 0 (the protocol's COMMAND_QOS): so does the publisher.
    publisher.cork();
    for (const e of envelopes) publisher.publishAtMostOnce(e.topic, JSON.stringify(e.envelope));
    publisher.uncork();
    const publishMs = Date.now() - t0;
    await done;
    clearTimeout(timer);
    const seconds = (Date.now() - t0) / 1000;
    baseRounds.push({
      ms: lastAck - t0,
      apiMs: publishMs,
      cpu: threadsCpuSeconds(mosquitto.child.pid!) - cpu0,
      panels: shareBetween(panels0, readAll(panelPids), seconds),
      publisher: (ownCpuSeconds() - own0) / seconds,
    });
    console.log(
      `Mosquitto round ${r + 1}: ${lastAck - t0} ms to the last acknowledgement (all written after ${publishMs} ms)`,
    );
    await sleep(1500);
  }
  const mosquittoRss = rssBytes(mosquitto.child.pid!);
  loads.push(loadAverage());
  publisher.end();
  const stats = await Promise.all(workers.map((w) => w.request({ op: 'stats' })));
  await all(() => ({ op: 'disconnect' }));
  await mosquitto.stop();

  const count = (list: WorkerReply[], key: 'executed' | 'duplicates' | 'errors') => sum(list, 'stats', key);
  const serverMedian = median(serverRounds.map((r) => r.ms));
  const baseMedian = median(baseRounds.map((r) => r.ms));
  printTable(
    `Label broadcast, ${fmt(DEVICES)} panels (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`,
    [
      [
        `PanelFleet (${EXTERNAL ? 'external Mosquitto' : 'embedded broker'}), API call -> last ack in DB (ms)`,
        serverRounds.map((r) => fmt(r.ms)).join(' / '),
      ],
      ['  of which the API reply (ms)', serverRounds.map((r) => fmt(r.apiMs)).join(' / ')],
      [
        EXTERNAL ? '  server + its Mosquitto CPU per round (s)' : '  server CPU per round (s)',
        serverRounds.map((r) => fmt(r.cpu, 2)).join(' / '),
      ],
      [
        '  server CPU per command (µs, median round)',
        fmt((median(serverRounds.map((r) => r.cpu)) / DEVICES) * 1e6),
      ],
      [
        '  panel processes, busiest, share of a core per round',
        serverRounds.map((r) => `${fmt(r.panels.busiest * 100)}%`).join(' / '),
      ],
      [
        'Mosquitto (lean publisher), first publish -> last ack (ms)',
        baseRounds.map((r) => fmt(r.ms)).join(' / '),
      ],
      ['  Mosquitto CPU per round (s)', baseRounds.map((r) => fmt(r.cpu, 3)).join(' / ')],
      [
        '  Mosquitto CPU per command (µs, median round)',
        fmt((median(baseRounds.map((r) => r.cpu)) / DEVICES) * 1e6, 1),
      ],
      [
        '  panel processes, busiest / publisher, share of a core per round',
        baseRounds
          .map((r) => `${fmt(r.panels.busiest * 100)}% / ${fmt((r.publisher ?? 0) * 100)}%`)
          .join(' / '),
      ],
      ['load generators saturated (>= 85% of a core)', saturatedRounds(serverRounds, baseRounds)],
      [
        'median PanelFleet / Mosquitto',
        `${fmt(serverMedian)} ms / ${fmt(baseMedian)} ms = ${fmt(serverMedian / baseMedian, 2)}x (goal <= 1.0x; server CPU per round <= 0.6 s)`,
      ],
      [
        'CPU per round, PanelFleet / Mosquitto (medians)',
        `${fmt(median(serverRounds.map((r) => r.cpu)) / median(baseRounds.map((r) => r.cpu)), 1)}x`,
      ],
      [
        'acks per second (median round)',
        `${fmt(DEVICES / (serverMedian / 1000))} / ${fmt(DEVICES / (baseMedian / 1000))}`,
      ],
      [
        `RSS with ${fmt(DEVICES)} connections`,
        `server ${fmt(serverRss / 2 ** 20)} MiB, mosquitto ${fmt(mosquittoRss / 2 ** 20)} MiB`,
      ],
      [
        'commands executed by panels',
        `${fmt(count(afterServer, 'executed'))} (PanelFleet) + ${fmt(count(stats, 'executed') - count(afterServer, 'executed'))} (Mosquitto), ${count(stats, 'duplicates')} repeated deliveries`,
      ],
      ['load average (1, 5, 15 min): start / after PanelFleet / after Mosquitto', loads.join(' / ')],
      ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
    ],
  );
});
