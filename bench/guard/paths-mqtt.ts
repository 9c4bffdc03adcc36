/**
 * The guard's device-side hot paths, each against a peer of a bare Aedes broker in this process
 * (peer-servers.ts) plus, where rows must be written, the same rows by raw SQL (RawSql), the
 * peer's CPU being this process's around the same work:
 * - connect: a panel's CONNECT with credentials and last will, SUBSCRIBE, retained presence;
 * - state ingest: QoS 1 partial state reports until every row holds its panel's last one;
 * - broadcast fan-out: a label command to every panel until every acknowledgement is recorded.
 * The panels are lean MQTT clients in one generator process (not counted on either side).
 */
import crypto from 'node:crypto';
import { device } from '@panelfleet/contract';
import { ownCpuSeconds, readAll, shareBetween } from '../lib/cpu.js';
import { sleep } from '../lib/harness.js';
import { RawMqttClient } from '../lib/raw-mqtt.js';
import { SETTLE_MS, type GuardPanels, type GuardServer } from './context.js';
import type { HotPath } from './measure.js';
import type { RawSql } from './raw-sql.js';

export interface MqttContext {
  server: GuardServer;
  panels: GuardPanels;
  rawSql: RawSql;
  /** The broadcast's label, holding every panel. */
  labelId: number;
}

/** Reports each panel sends per ingest round, and how many it keeps unacknowledged. */
const REPORTS_PER_PANEL = 40;
const INFLIGHT = 4;
const ROUND_LIMIT_MS = 60_000;

/** Runs `work` while reading the generator's CPU, so a saturated generator is flagged. */
async function watched<T>(panels: GuardPanels, work: () => Promise<T>) {
  const before = readAll([panels.pid]);
  const t0 = performance.now();
  const value = await work();
  const generator = shareBetween(before, readAll([panels.pid]), (performance.now() - t0) / 1000);
  return { value, generator };
}

async function until(what: string, done: () => boolean) {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > ROUND_LIMIT_MS) throw new Error(`${what}: not done within ${ROUND_LIMIT_MS} ms`);
    await sleep(50);
  }
}

/** This process's CPU across `work` and the settling after it: the peer's side of a round. */
async function peerCpu<T>(work: () => Promise<T>) {
  const cpu0 = ownCpuSeconds();
  const value = await work();
  await sleep(SETTLE_MS);
  return { value, cpu: ownCpuSeconds() - cpu0 };
}

export const connectPath: HotPath<MqttContext> = {
  name: 'connect',
  unit: 'panel connect',
  peerName: 'bare Aedes',
  kind: 'cpu',
  budget: Number.NaN,
  prepare: (context) => context.panels.disconnect(),
  async ours(context) {
    const { generator } = await watched(context.panels, () => context.panels.connect('server'));
    await sleep(SETTLE_MS);
    return { ops: context.panels.count, generator };
  },
  async peer(context) {
    const { cpu, value } = await peerCpu(() => watched(context.panels, () => context.panels.connect('peer')));
    return { ops: context.panels.count, cost: cpu, generator: value.generator };
  },
};

let reportSequence = 0;

async function ingest(context: MqttContext) {
  const from = reportSequence;
  reportSequence += REPORTS_PER_PANEL;
  const { value: replies, generator } = await watched(context.panels, () =>
    context.panels.worker.request({
      op: 'ingest',
      seconds: ROUND_LIMIT_MS / 1000,
      inflight: INFLIGHT,
      reports: REPORTS_PER_PANEL,
      from,
    }),
  );
  if (replies.op !== 'ingested' || replies.sent !== REPORTS_PER_PANEL * context.panels.count)
    throw new Error(`ingest: ${JSON.stringify(replies).slice(0, 200)}`);
  return { reports: replies.sent, last: from + REPORTS_PER_PANEL, generator };
}

export const ingestPath: HotPath<MqttContext> = {
  name: 'state ingest',
  unit: 'report persisted',
  peerName: 'bare Aedes + raw SQLite UPDATE',
  kind: 'cpu',
  budget: Number.NaN,
  prepare: (context, side) => context.panels.ensure(side === 'ours' ? 'server' : 'peer'),
  async ours(context) {
    const { reports, last, generator } = await ingest(context);
    const behind = context.server.reader.prepare(
      "SELECT count(*) AS n FROM devices WHERE device_key GLOB 'GRD-[0-9]*' AND (ram_used IS NULL OR ram_used <> ?)",
    );
    await until('ingest', () => (behind.get(last) as { n: number }).n === 0);
    await sleep(SETTLE_MS);
    return { ops: reports, generator };
  },
  async peer(context) {
    const { value, cpu } = await peerCpu(async () => {
      const round = await ingest(context);
      context.rawSql.writeReports(round.reports);
      return round;
    });
    return { ops: value.reports, cost: cpu, generator: value.generator };
  },
};

let brightness = 0;
const nextBrightness = () => (brightness = (brightness % 100) + 1);

/** The peer's lean publisher: one connection to the bare broker that publishes commands and collects acknowledgements. */
let publisher: { client: RawMqttClient; onAck: (id: string) => void } | undefined;

async function leanPublisher(context: MqttContext) {
  if (publisher) return publisher;
  const url = new URL(context.panels.peerUrl);
  const client = new RawMqttClient();
  await client.connect({
    host: url.hostname,
    port: Number(url.port),
    clientId: 'guard-publisher',
    username: 'guard',
    password: 'guard',
    keepaliveSeconds: 60,
  });
  const made = { client, onAck: (_id: string) => undefined as void };
  client.onMessage = (_topic, payload) => {
    const ack = JSON.parse(payload.toString('utf8')) as { id: string; result: string };
    if (ack.result === 'succeeded') made.onAck(ack.id);
  };
  await client.subscribe(`${device.TOPIC_ROOT}/+/ack`);
  publisher = made;
  return made;
}

export const broadcastPath: HotPath<MqttContext> = {
  name: 'broadcast fan-out',
  unit: 'command acknowledged',
  peerName: 'lean publisher, bare Aedes, raw SQLite rows',
  kind: 'cpu',
  budget: Number.NaN,
  prepare: (context, side) => context.panels.ensure(side === 'ours' ? 'server' : 'peer'),
  async ours(context) {
    const { server, panels, labelId } = context;
    const value = nextBrightness();
    // Counted as the server settles them (after the acknowledgements are written): no polling here.
    let succeeded = 0;
    const unsubscribe = server.app.events.subscribe((message) => {
      if (message.kind === 'live' && message.event.type === 'command' && message.event.status === 'succeeded')
        succeeded++;
    });
    try {
      const { generator } = await watched(panels, async () => {
        const reply = await server.app.http.inject({
          method: 'POST',
          url: '/sendData/sendCommandByTagIds',
          headers: { cookie: server.operator.cookieHeader(), 'accept-language': 'en-US' },
          payload: { tagIds: String(labelId), order: '00', value: String(value) },
        });
        if (reply.json<{ hhtStatus: string }>().hhtStatus !== 'success')
          throw new Error(`label command refused: ${reply.body}`);
        await until('broadcast', () => succeeded >= panels.count);
      });
      await sleep(SETTLE_MS);
      if (succeeded !== panels.count)
        throw new Error(`${succeeded} commands settled for ${panels.count} panels`);
      return { ops: panels.count, generator };
    } finally {
      unsubscribe();
    }
  },
  async peer(context) {
    const { panels } = context;
    const lean = await leanPublisher(context);
    const value = nextBrightness();
    const waiting = new Set<string>();
    const { value: round, cpu } = await peerCpu(() =>
      watched(panels, async () => {
        lean.onAck = (id) => void waiting.delete(id);
        const now = Date.now();
        lean.client.cork();
        for (const key of panels.keys) {
          const id = crypto.randomUUID();
          waiting.add(id);
          lean.client.publishAtMostOnce(
            device.commandTopic(key),
            JSON.stringify({ v: 1, id, order: '00', value, expiresAt: now + 600_000, ttlMs: 600_000 }),
          );
        }
        lean.client.uncork();
        await until('broadcast peer', () => waiting.size === 0);
        context.rawSql.writeCommands(value);
      }),
    );
    return { ops: panels.count, cost: cpu, generator: round.generator };
  },
};
