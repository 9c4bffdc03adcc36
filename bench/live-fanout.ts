/**
 * `npm run bench:live`: presence events of 1,000 flapping panels fanned out to 100 open consoles
 * (server-sent-event streams of the live console, GET /platform/live/events).
 *
 * The server is the real one (apps/server/src/dev/serve.ts in its own process, embedded broker).
 * PANELS raw MQTT panels (bench/lib/device-worker.ts) of the sample company connect; CONSOLES
 * streams are opened in this process, spread over the company's signed-in users. Then CYCLES
 * times every panel disconnects and connects again (2 x PANELS presence events a cycle).
 *
 * Measured: the delay from the broker event (the event's `at`, stamped by the server when the
 * gateway handled the connection change) to its arrival at each console, p50 / p99 / max over
 * every delivery; the server's CPU per presence event with the consoles open, beside the same
 * cycles with no console open (the baseline, same run): the difference is the fan-out's cost.
 *
 * Environment: PANELS (1000), CONSOLES (100), CYCLES (5), WORKERS (2).
 */
import { live } from '@panelfleet/contract';
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

const PANELS = Number(process.env.PANELS ?? 1000);
const CONSOLES = Number(process.env.CONSOLES ?? 100);
const CYCLES = Number(process.env.CYCLES ?? 5);
const WORKERS = Number(process.env.WORKERS ?? 2);

interface Console {
  delays: number[];
  presence: number;
  close(): void;
}

/** One console's stream: records the delay of every presence event it receives. */
async function openConsole(base: string, cookie: string): Promise<Console> {
  const controller = new AbortController();
  const response = await fetch(`${base}/platform/live/events`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`stream refused: ${response.status}`);
  const state: Console = { delays: [], presence: 0, close: () => controller.abort() };
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const now = Date.now();
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.includes(`event: ${live.STREAM_READY}`)) ready();
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (!data || block.includes('event: ')) continue;
          const event = JSON.parse(data.slice(6)) as { type: string; at: number };
          if (event.type !== 'presence') continue;
          state.presence++;
          state.delays.push(now - event.at);
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
  })();
  await isReady;
  return state;
}

function percentile(sorted: number[], q: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

runBenchmark('bench:live', 1_200_000, async () => {
  const started = Date.now();
  const server = await startServer();
  const pid = server.child.pid!;
  const users = await Promise.all(
    [
      ['operator1', 'operator123'],
      ['customer1', 'customer123'],
      ['manager1', 'manager123'],
    ].map(([name, password]) => Operator.signIn(server.url, name, password)),
  );
  const secret = await users[0]!.enrollmentSecret();
  const workers = Array.from({ length: WORKERS }, () => DeviceWorker.start());
  const share = Math.ceil(PANELS / WORKERS);
  await allWorkers(workers, (w) => ({
    op: 'enroll',
    mode: 'raw',
    serverUrl: server.url,
    secret,
    prefix: 'FLAP',
    from: w * share + 1,
    count: Math.min(share, PANELS - w * share),
    concurrency: 25,
  }));
  const connect = async () => {
    const ok = sum(
      await allWorkers(workers, () => ({ op: 'connect', mqttUrl: server.mqttUrl, concurrency: 50 })),
      'connected',
      'ok',
    );
    if (ok !== PANELS) throw new Error(`${ok} of ${PANELS} panels connected`);
  };
  const disconnect = () => allWorkers(workers, () => ({ op: 'disconnect' }));
  await connect();
  await sleep(1000);

  /** CYCLES times every panel off and on again; server CPU seconds used. */
  const flap = async () => {
    const cpu0 = cpuSeconds(pid);
    for (let c = 0; c < CYCLES; c++) {
      await disconnect();
      await sleep(300);
      await connect();
      await sleep(300);
    }
    await sleep(1000);
    return cpuSeconds(pid) - cpu0;
  };

  console.log(`baseline: ${CYCLES} cycles of ${PANELS} panels off and on, no console open…`);
  const baselineCpu = await flap();

  console.log(`opening ${CONSOLES} consoles…`);
  const consoles: Console[] = [];
  for (let i = 0; i < CONSOLES; i++) {
    const user = users[i % users.length]!;
    consoles.push(await openConsole(server.url, user.cookieHeader()));
  }
  console.log(`${CYCLES} cycles of ${PANELS} panels off and on, ${CONSOLES} consoles open…`);
  const withCpu = await flap();
  const events = CYCLES * PANELS * 2;
  const delays = consoles.flatMap((c) => c.delays).sort((a, b) => a - b);
  const received = consoles.map((c) => c.presence);
  for (const c of consoles) c.close();
  await disconnect();
  await server.stop();

  printTable(`Live console fan-out (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`, [
    [`presence events (${CYCLES} cycles x ${PANELS} panels x off+on)`, fmt(events)],
    [
      `events received per console (min / max of ${CONSOLES})`,
      `${fmt(Math.min(...received))} / ${fmt(Math.max(...received))}`,
    ],
    ['deliveries measured', fmt(delays.length)],
    [
      'delay broker event -> console, ms p50 / p99 / max',
      `${fmt(percentile(delays, 0.5))} / ${fmt(percentile(delays, 0.99))} / ${fmt(delays.at(-1) ?? 0)}`,
    ],
    ['server CPU per presence event, no console (baseline)', `${fmt((baselineCpu / events) * 1e6, 1)} µs`],
    [`server CPU per presence event, ${CONSOLES} consoles`, `${fmt((withCpu / events) * 1e6, 1)} µs`],
    [
      'fan-out cost per event and console',
      `${fmt(((withCpu - baselineCpu) / events / CONSOLES) * 1e6, 2)} µs`,
    ],
    ['ratio CPU with consoles / baseline', `${fmt(withCpu / Math.max(1e-9, baselineCpu), 2)}x`],
    ['load average at the end (1, 5, 15 min)', loadAverage()],
    ['total run time', `${fmt((Date.now() - started) / 1000)} s`],
  ]);
  if (Math.min(...received) < events)
    throw new Error(`a console missed events: ${Math.min(...received)} of ${events}`);
});
