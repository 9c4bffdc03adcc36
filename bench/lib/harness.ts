/**
 * Shared plumbing for the gateway benchmarks: a PanelFleet server as a child process, a Debian
 * Mosquitto on its own port, device worker processes, process memory and CPU readings, cleanup.
 * Everything listens on and connects to 127.0.0.1 only.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

const here = path.dirname(new URL(import.meta.url).pathname);
export const repoRoot = path.resolve(here, '../..');
const serveScript = path.join(repoRoot, 'apps/server/src/dev/serve.ts');
const workerScript = path.join(here, 'device-worker.ts');

const cleanups: Array<() => void | Promise<void>> = [];
let cleaning: Promise<void> | undefined;

/** Registers work to undo at exit (children, temp dirs), run in reverse order. */
export function onCleanup(fn: () => void | Promise<void>) {
  cleanups.push(fn);
}

/** Runs once; a second caller waits for the same cleanup instead of exiting half-way. */
export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error(`cleanup: ${String(err)}`);
      }
    }
  })();
  return cleaning;
}

/** Runs a benchmark's main function with cleanup on success, failure, Ctrl+C and an overall deadline. */
export function runBenchmark(name: string, deadlineMs: number, main: () => Promise<void>) {
  const deadline = setTimeout(() => {
    console.error(`${name}: over its ${deadlineMs / 1000} s deadline; stopping`);
    void cleanup().then(() => process.exit(3));
  }, deadlineMs);
  deadline.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void cleanup().then(() => process.exit(130)));
  main().then(
    async () => {
      await cleanup();
      process.exit(0);
    },
    async (err: unknown) => {
      console.error(`${name} failed:`, err);
      await cleanup();
      process.exit(1);
    },
  );
}

export function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends a child we started: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  mqttUrl: string;
  dataDir: string;
  dbFile: string;
  stop(): Promise<void>;
}

/** `apps/server/src/dev/serve.ts` (sample accounts seeded, captcha off, logs silent) in its own process. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = tempDir('pf-bench-');
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(httpPort),
    BASE_URL: `http://127.0.0.1:${httpPort}`,
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    MQTT_WS: 'off',
    CAPTCHA: 'off',
    PASSWORD_PEPPER: 'bench-pepper-0123456789abcdef',
    ADMIN_PASSWORD: 'admin123',
    LOG_LEVEL: 'silent',
    // A heap setting under study reaches the server (e.g. HEAP_GROWING_PERCENT=0 for V8's own).
    ...(process.env.HEAP_GROWING_PERCENT ? { HEAP_GROWING_PERCENT: process.env.HEAP_GROWING_PERCENT } : {}),
    ...extraEnv,
  };
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (for a brief look at hot spots).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  // BENCH_SERVER_FLAGS: extra V8/Node flags for the server process (e.g. GC tuning experiments).
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...profile, ...flags, '--import', 'tsx', serveScript], {
    env,
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => stopChild(child);
  onCleanup(stop);
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
  return {
    child,
    url,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    dataDir,
    dbFile: path.join(dataDir, 'panelfleet.db'),
    stop,
  };
}

export interface MosquittoProcess {
  child: ChildProcess;
  mqttUrl: string;
  stop(): Promise<void>;
}

/** Debian's /usr/sbin/mosquitto with a temporary config: one 127.0.0.1 listener, anonymous clients. */
export async function startMosquitto(): Promise<MosquittoProcess> {
  const dir = tempDir('pf-mosquitto-');
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  // max_queued_messages 0: the default (1000) would drop acknowledgements queued for the one
  // collecting client; everything else is Debian's default.
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_queued_messages 0',
      'log_dest none',
      '',
    ].join('\n'),
  );
  const child = spawn('/usr/sbin/mosquitto', ['-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = () => stopChild(child);
  onCleanup(stop);
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (open) return { child, mqttUrl: `mqtt://127.0.0.1:${port}`, stop };
    await sleep(50);
  }
  throw new Error('mosquitto did not start listening');
}

/** Sends one request to every worker; `make` gets the worker's index. */
export function allWorkers(
  workers: DeviceWorker[],
  make: (index: number) => WorkerRequest,
): Promise<WorkerReply[]> {
  return Promise.all(workers.map((w, i) => w.request(make(i))));
}

/** Sums a numeric field over the replies of one kind. */
export function sum<K extends WorkerReply['op']>(
  replies: WorkerReply[],
  op: K,
  field: keyof Extract<WorkerReply, { op: K }>,
): number {
  return replies.reduce(
    (n, r) => n + (r.op === op ? Number((r as Record<string, unknown>)[field as string] ?? 0) : 0),
    0,
  );
}

/** A device worker process: holds up to a few thousand simulated devices, driven over IPC. */
export class DeviceWorker {
  private nextId = 1;
  private waiting = new Map<number, { resolve: (r: WorkerReply) => void; reject: (e: Error) => void }>();

  constructor(readonly child: ChildProcess) {
    child.on('message', (message: WorkerReply) => {
      const entry = this.waiting.get(message.requestId);
      if (!entry) return;
      this.waiting.delete(message.requestId);
      if (message.op === 'error') entry.reject(new Error(message.message));
      else entry.resolve(message);
    });
    child.once('exit', (code) => {
      for (const entry of this.waiting.values()) entry.reject(new Error(`device worker exited with ${code}`));
      this.waiting.clear();
    });
  }

  static start(): DeviceWorker {
    const child = fork(workerScript, [], {
      execArgv: ['--import', 'tsx'],
      cwd: repoRoot,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    onCleanup(() => stopChild(child, 3000));
    return new DeviceWorker(child);
  }

  request(request: WorkerRequest): Promise<WorkerReply> {
    const requestId = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(requestId, { resolve, reject });
      this.child.send({ ...request, requestId });
    });
  }
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

export function openFiles(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

/** The soft limit on open files of a process. */
export function fileLimit(pid: number): number {
  const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
  return Number(/Max open files\s+(\d+)/.exec(limits)?.[1] ?? 0);
}

/** The 1, 5 and 15 minute load averages: other sessions share these 2 cores. */
export function loadAverage() {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}

export function machineDescription() {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} x ${cpu.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}, Node ${process.version}`;
}

export function printTable(title: string, rows: Array<[string, string]>) {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${title}`);
  console.log('-'.repeat(title.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * A throwaway PostgreSQL database on the server of `adminUrl`, named after the benchmark and this
 * process, dropped when the benchmark ends; returns its URL.
 */
export async function freshPostgres(adminUrl: string, benchmark: string): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `bench_${benchmark}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  onCleanup(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
