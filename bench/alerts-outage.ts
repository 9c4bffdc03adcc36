/**
 * `npm run bench:alerts-outage`: the mass outage of issue 26 with real connections. The server
 * runs in its own process (apps/server/src/dev/serve.ts, SQLite, its alert jobs on the real
 * clock: a round every 5 s, the grouped mail's window shortened to 10 s); PANELS panels (10,000)
 * are enrolled over HTTP and connected over MQTT by the lean client (lib/raw-mqtt.ts) in WORKERS
 * device processes (at most 2,500 connections each), then all disconnect at once.
 *
 * One rule: offline for 1 minute (the shortest the contract allows), no further duration, mail to
 * one address, and one webhook to a receiver in this process. Measured:
 * - the steady cost: the server process's CPU over STEADY_S seconds with every panel connected,
 *   the rule enabled, then the same with it disabled; the difference is the evaluation's;
 * - when the offline alerts are raised: every alert's `raisedAt` (from the webhook deliveries)
 *   against the disconnect plus the rule's minute (budget: within 10 s);
 * - the webhook deliveries that reached the receiver (budget: at most one per batch window) and
 *   the alerts they counted, and the grouped mails written to the outbox (budget: one).
 *
 * Environment: PANELS (10000), WORKERS (4), STEADY_S (30).
 */
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { alerts, webhooks } from '@panelfleet/contract';
import {
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
  startServer,
  sum,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const PANELS = Number(process.env.PANELS ?? 10_000);
const WORKERS = Number(process.env.WORKERS ?? 4);
const STEADY_S = Number(process.env.STEADY_S ?? 30);
const OFFLINE_MINUTES = 1;
const MAIL_WINDOW_MS = 10_000;

interface Delivery {
  at: number;
  type: string;
  listed: number;
  total: number;
  raisedAt: number[];
}

/** A webhook receiver: answers 204 at once and keeps what each delivery said. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const payload = webhooks.webhookPayload.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const data = payload.data as { alerts?: alerts.Alert[]; total?: number };
      deliveries.push({
        at: Date.now(),
        type: payload.type,
        listed: data.alerts?.length ?? 0,
        total: data.total ?? 0,
        raisedAt: (data.alerts ?? []).map((a) => a.raisedAt),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`, deliveries };
}

/** A JSON call of the console's (the alert and webhook calls take JSON bodies). */
async function postJson(base: string, operator: Operator, url: string, body: unknown) {
  const response = await fetch(base + url, {
    method: 'POST',
    headers: {
      cookie: operator.cookieHeader(),
      'content-type': 'application/json',
      'accept-language': 'en-US',
    },
    body: JSON.stringify(body),
  });
  const reply = (await response.json()) as { hhtStatus?: string; dataObject?: { id: number } };
  if (reply.hhtStatus !== 'success') throw new Error(`${url} refused: ${JSON.stringify(reply)}`);
  return reply.dataObject!;
}

runBenchmark('bench:alerts-outage', 900_000, async () => {
  const loads = [loadAverage()];
  const server = await startServer({
    OUTBOUND_ALLOW_PRIVATE: '1',
    ALERT_MAIL_WINDOW_MS: String(MAIL_WINDOW_MS),
  });
  const pid = server.child.pid!;
  const operator = await Operator.signIn(server.url, 'customer1', 'customer123');
  const secret = await operator.enrollmentSecret();
  const receiver = await startReceiver();
  const hook = await postJson(server.url, operator, '/webhooks/save', {
    name: 'Outage receiver',
    url: receiver.url,
    events: ['alert.raised'],
  });
  const ruleInput = {
    name: 'Panels offline',
    severity: 'major',
    condition: { kind: 'offline', minutes: OFFLINE_MINUTES },
    durationSeconds: 0,
    labelIds: [],
    channels: { emailAddresses: ['noc@example.com'], emailMode: 'grouped', webhookIds: [hook.id] },
  };
  const rule = await postJson(server.url, operator, '/alerts/rules/save', { ...ruleInput, enabled: false });

  const workers = Array.from({ length: WORKERS }, () => DeviceWorker.start());
  const share = Math.ceil(PANELS / WORKERS);
  let t = Date.now();
  await allWorkers(workers, (w) => ({
    op: 'enroll',
    mode: 'raw',
    serverUrl: server.url,
    secret,
    prefix: 'OUT',
    from: w * share + 1,
    count: Math.max(0, Math.min(share, PANELS - w * share)),
    concurrency: 10,
  }));
  console.log(`enrolled ${PANELS} panels in ${fmt((Date.now() - t) / 1000, 1)} s`);
  t = Date.now();
  const connects = await allWorkers(workers, () => ({
    op: 'connect',
    mqttUrl: server.mqttUrl,
    concurrency: 50,
  }));
  const connected = sum(connects, 'connected', 'ok');
  console.log(
    `connected ${connected} (${sum(connects, 'connected', 'failed')} failed) in ${fmt((Date.now() - t) / 1000, 1)} s`,
  );
  loads.push(loadAverage());
  await sleep(5000);

  // Steady state: the same window with the rule disabled, then enabled; the difference is the evaluation.
  const cpuOver = async () => {
    const cpu0 = cpuSeconds(pid);
    const t0 = Date.now();
    await sleep(STEADY_S * 1000);
    return (cpuSeconds(pid) - cpu0) / ((Date.now() - t0) / 1000);
  };
  const idle = await cpuOver();
  await postJson(server.url, operator, '/alerts/rules/save', { ...ruleInput, id: rule.id, enabled: true });
  await sleep(5000);
  const evaluating = await cpuOver();
  loads.push(loadAverage());

  // The outage: every panel goes away at once.
  const outboxDir = path.join(server.dataDir, 'outbox');
  const mailsBefore = fs.existsSync(outboxDir) ? fs.readdirSync(outboxDir).length : 0;
  const down0 = Date.now();
  await allWorkers(workers, () => ({ op: 'disconnect' }));
  const down1 = Date.now();
  console.log(`${connected} panels disconnected in ${fmt(down1 - down0)} ms; waiting for the alerts...`);
  const due = down0 + OFFLINE_MINUTES * 60_000;
  const raisedTotal = () =>
    receiver.deliveries.filter((d) => d.type === 'alert.raised').reduce((n, d) => n + d.total, 0);
  while (raisedTotal() < connected && Date.now() < due + 60_000) await sleep(250);
  const allInAt = Date.now();
  // The grouped mail: the next window or two after the raise.
  await sleep(2 * MAIL_WINDOW_MS + 2000);
  const mails = (fs.existsSync(outboxDir) ? fs.readdirSync(outboxDir) : [])
    .filter((f) => f.endsWith('.eml'))
    .slice(mailsBefore)
    .map((f) => fs.readFileSync(path.join(outboxDir, f), 'utf8').match(/^Subject: (.*)$/m)?.[1] ?? '?');
  const counts = alerts.countAlerts.reply.parse(await operator.request('GET', '/alerts/count')).dataObject;
  loads.push(loadAverage());

  const storm = receiver.deliveries.filter((d) => d.type === 'alert.raised');
  const listedRaisedAt = storm.flatMap((d) => d.raisedAt);
  const lateness = listedRaisedAt.map((at) => at - due);
  const lastDeliveryAt = Math.max(...storm.map((d) => d.at));
  printTable(`alert outage, ${fmt(connected)} panels over MQTT, SQLite (${new Date().toISOString()})`, [
    ['machine', machineDescription()],
    ['load average: start / connected / steady done / end', loads.join(' / ')],
    ['disconnect of every panel took', `${fmt(down1 - down0)} ms`],
    [
      'server CPU at steady state (rule off / on)',
      `${fmt(100 * idle, 2)} % / ${fmt(100 * evaluating, 2)} % of a core; difference ${fmt(100 * (evaluating - idle), 2)} % (budget 1 %; the whole process's CPU, so other work's noise is in it)`,
    ],
    ['active alerts after the outage (bell)', fmt(counts.active)],
    [
      'webhook deliveries (alert.raised)',
      `${storm.length}: ${storm.map((d) => `${fmt(d.listed)} listed of ${fmt(d.total)}`).join('; ')}`,
    ],
    [
      'raisedAt after disconnect + 1 min (listed alerts)',
      lateness.length
        ? `${fmt(Math.min(...lateness) / 1000, 1)} s .. ${fmt(Math.max(...lateness) / 1000, 1)} s (budget 10 s)`
        : 'none',
    ],
    [
      'last delivery reached the receiver after disconnect + 1 min',
      storm.length ? `${fmt((lastDeliveryAt - due) / 1000, 1)} s` : 'none',
    ],
    ['all counted by', `${fmt((allInAt - due) / 1000, 1)} s after disconnect + 1 min`],
    ['grouped mails written', `${mails.length}: ${mails.join(' | ')}`],
  ]);
});
