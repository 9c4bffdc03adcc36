/**
 * A device worker process (forked by the benchmarks). It holds a slice of the simulated fleet so
 * that no process exceeds the 20,000 open files limit, and is driven over IPC.
 * Mode 'panel': the simulator's own SimulatedPanel (apps/simulator), which obeys and acknowledges
 * commands. Mode 'bare': a minimal panel following docs/device-protocol.md (connect, subscribe,
 * presence), used for connection capacity. Mode 'raw': the same protocol steps through a lean
 * client (raw-mqtt.ts) that keeps several reports in flight, for the state-report load.
 */
import { device } from '@panelfleet/contract';
import { SimulatedPanel, type PanelOptions } from '../../apps/simulator/src/panel.js';
import mqtt, { type MqttClient } from 'mqtt';
import { RawMqttClient } from './raw-mqtt.js';
import type { DeviceMode, WorkerReply, WorkerRequest } from './worker-protocol.js';

interface BareDevice {
  key: string;
  password: string;
  client?: MqttClient;
  raw?: RawMqttClient;
}

interface PanelSlot {
  panel: SimulatedPanel;
  /** The options object the panel keeps: changing mqttUrl moves it to another broker. */
  options: PanelOptions;
}

let mode: DeviceMode = 'bare';
const bare: BareDevice[] = [];
const panels: PanelSlot[] = [];
let errors = 0;
/** Commands the raw devices executed and acknowledged. */
let rawExecuted = 0;

function send(reply: WorkerReply) {
  process.send!(reply);
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function enrollBare(serverUrl: string, serial: string, secret: string): Promise<BareDevice> {
  const response = await fetch(`${serverUrl}/device/enroll`, {
    method: 'POST',
    // No keep-alive: idle HTTP sockets would hold server files the connection benchmark needs.
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({
      v: device.PROTOCOL_VERSION,
      serial,
      enrollmentSecret: secret,
      model: 'PF-86',
      machineType: 'x9_vn',
    }),
  });
  const reply: unknown = await response.json();
  const parsed = device.enroll.reply.safeParse(reply);
  if (!parsed.success) throw new Error(`enrollment of ${serial} refused: ${JSON.stringify(reply)}`);
  const creds = parsed.data.dataObject;
  return { key: creds.deviceKey, password: creds.password };
}

async function connectBare(d: BareDevice, mqttUrl: string) {
  const client = await mqtt.connectAsync(mqttUrl, {
    clientId: d.key,
    username: d.key,
    password: d.password,
    keepalive: 30,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: 60_000,
    will: {
      topic: device.deviceTopic(d.key, 'presence'),
      payload: Buffer.from(JSON.stringify({ v: 1, online: false })),
      qos: 1,
      retain: true,
    },
  });
  client.on('error', () => errors++);
  d.client = client;
  await client.subscribeAsync(device.commandTopic(d.key), { qos: 1 });
  await client.publishAsync(device.deviceTopic(d.key, 'presence'), JSON.stringify({ v: 1, online: true }), {
    qos: 1,
    retain: true,
  });
}

async function connectRaw(d: BareDevice, mqttUrl: string) {
  const url = new URL(mqttUrl);
  const raw = new RawMqttClient();
  const presence = device.deviceTopic(d.key, 'presence');
  await raw.connect({
    host: url.hostname,
    port: Number(url.port),
    clientId: d.key,
    username: d.key,
    password: d.password,
    keepaliveSeconds: 30,
    will: { topic: presence, payload: JSON.stringify({ v: 1, online: false }), qos: 1, retain: true },
  });
  d.raw = raw;
  const ackTopic = device.deviceTopic(d.key, 'ack');
  // A command is executed at once and acknowledged with the state it changed, as a panel does (protocol 5.7).
  raw.onMessage = (_topic, payload) => {
    const command = JSON.parse(payload.toString('utf8')) as { id: string; order: string; value: unknown };
    rawExecuted++;
    const state = command.order === '00' ? `,"state":{"brightness":${Number(command.value)}}` : '';
    raw.publishAtMostOnce(ackTopic, `{"v":1,"id":"${command.id}","result":"succeeded"${state}}`);
  };
  await raw.subscribe(device.commandTopic(d.key));
  await raw.publish(presence, JSON.stringify({ v: 1, online: true }), true);
}

/** The generator's panels all booted when it started. */
const bootedAt = performance.now();
/** A panel's uptime for its next report: milliseconds since boot, one more than the last at least. */
const uptimeAfter = (last: number) => Math.max(Math.floor(performance.now() - bootedAt), last + 1);

/**
 * Raw devices: each keeps `inflight` QoS 1 reports unacknowledged until the deadline, or until it
 * sent `reports` of them when that is given.
 */
async function ingestRaw(seconds: number, inflight: number, reports = Infinity, from = 0) {
  const deadline = Date.now() + seconds * 1000;
  let sent = 0;
  const last: Record<string, number> = {};
  await Promise.all(
    bare.map(async (d, i) => {
      const raw = d.raw;
      if (!raw) return;
      const topic = device.deviceTopic(d.key, 'state');
      let seq = from;
      let ts = 0;
      let up = 0;
      const lane = async () => {
        while (seq < from + reports && Date.now() < deadline && !raw.closed) {
          const mine = ++seq;
          // A panel's reports carry its rising uptime, which orders them (protocol 5.1), and its
          // time: the lanes send several in one millisecond.
          ts = Math.max(Date.now(), ts + 1);
          up = uptimeAfter(up);
          // The simulator's periodic telemetry shape; ramUsed carries a sequence number the benchmark reads back.
          await raw.publish(
            topic,
            `{"v":1,"cpuTemperature":${40 + ((i + mine) % 150) / 10},"ramUsed":${mine},"ts":${ts},"uptimeMs":${up}}`,
          );
          sent++;
          // The broker acknowledges in order, so the highest acknowledged number is the last one sent.
          if (mine > (last[d.key] ?? 0)) last[d.key] = mine;
        }
      };
      await Promise.all(Array.from({ length: inflight }, lane));
    }),
  );
  return { sent, last };
}

async function handle(request: WorkerRequest & { requestId: number }): Promise<WorkerReply> {
  const { requestId } = request;
  switch (request.op) {
    case 'enroll': {
      mode = request.mode;
      const started = Date.now();
      const serials = Array.from(
        { length: request.count },
        (_, i) => `${request.prefix}-${String(request.from + i).padStart(5, '0')}`,
      );
      await pool(serials, request.concurrency, async (serial) => {
        if (mode !== 'panel') {
          bare.push(await enrollBare(request.serverUrl, serial, request.secret));
          return;
        }
        const options: PanelOptions = {
          serverUrl: request.serverUrl,
          mqttUrl: '',
          enrollmentSecret: request.secret,
          serial,
          index: request.from + panels.length,
          telemetryMs: 3_600_000, // no periodic telemetry during the measurements
          restartDelayMs: 3000,
          abnormalLogChance: 0,
          sendMagicPacket: () => Promise.resolve(),
          log: () => errors++,
        };
        const panel = new SimulatedPanel(options);
        await panel.enroll();
        panels.push({ panel, options });
      });
      return {
        requestId,
        op: 'enrolled',
        count: mode === 'panel' ? panels.length : bare.length,
        ms: Date.now() - started,
      };
    }
    case 'connect': {
      const started = Date.now();
      let ok = 0;
      let failed = 0;
      let firstError: string | undefined;
      const fail = (err: unknown) => {
        failed++;
        firstError ??= String(err);
      };
      if (mode === 'bare') {
        await pool(bare, request.concurrency, (d) =>
          connectBare(d, request.mqttUrl).then(() => void ok++, fail),
        );
      } else if (mode === 'raw') {
        await pool(bare, request.concurrency, (d) =>
          connectRaw(d, request.mqttUrl).then(() => void ok++, fail),
        );
      } else {
        await pool(panels, request.concurrency, async (slot) => {
          slot.options.mqttUrl = request.mqttUrl;
          await slot.panel.powerOn().then(() => void ok++, fail);
        });
      }
      return {
        requestId,
        op: 'connected',
        ok,
        failed,
        ms: Date.now() - started,
        ...(firstError ? { firstError } : {}),
      };
    }
    case 'disconnect': {
      if (mode !== 'panel') {
        await pool(bare, 200, async (d) => {
          await d.client?.endAsync(true);
          d.client = undefined;
          d.raw?.end();
          d.raw = undefined;
        });
      } else {
        await pool(panels, 200, (slot) => slot.panel.powerOff().catch(() => void errors++));
      }
      return { requestId, op: 'disconnected' };
    }
    case 'ingest': {
      if (mode === 'raw')
        return {
          requestId,
          op: 'ingested',
          ...(await ingestRaw(request.seconds, request.inflight, request.reports, request.from)),
        };
      const deadline = Date.now() + request.seconds * 1000;
      let sent = 0;
      const last: Record<string, number> = {};
      await Promise.all(
        bare.map(async (d, i) => {
          const client = d.client;
          if (!client) return;
          const topic = device.deviceTopic(d.key, 'state');
          let seq = 0;
          let ts = 0;
          let up = 0;
          while (Date.now() < deadline && client.connected) {
            seq++;
            ts = Math.max(Date.now(), ts + 1);
            up = uptimeAfter(up); // rising uptime (protocol 5.1)
            // The simulator's periodic telemetry shape; ramUsed carries a sequence number the benchmark reads back.
            const payload = JSON.stringify({
              v: 1,
              cpuTemperature: 40 + ((i + seq) % 150) / 10,
              ramUsed: seq,
              ts,
              uptimeMs: up,
            });
            try {
              await client.publishAsync(topic, payload, { qos: 1 });
              sent++;
              last[d.key] = seq;
            } catch {
              errors++;
              break;
            }
          }
        }),
      );
      return { requestId, op: 'ingested', sent, last };
    }
    case 'stats': {
      const executed = panels.reduce((n, s) => n + s.panel.executed.length, rawExecuted);
      const duplicates = panels.reduce((n, s) => n + s.panel.duplicates, 0);
      return { requestId, op: 'stats', executed, duplicates, errors };
    }
  }
}

process.on('message', (request: WorkerRequest & { requestId: number }) => {
  handle(request).then(send, (err: unknown) =>
    send({ requestId: request.requestId, op: 'error', message: String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
