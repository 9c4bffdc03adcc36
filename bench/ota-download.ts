/**
 * `npm run bench:ota`: panels downloading one firmware file over HTTP from PanelFleet's
 * signed-URL endpoint (HMAC check, the panel's credentials, file stat, Range-capable stream),
 * against nginx serving the same file from the same directory (sendfile; a machine without nginx
 * is an error), and against the smallest Node static server (fs stream piped to the response) as
 * a second baseline, and PanelFleet behind nginx with FILES_ACCEL_REDIRECT (the server checks each
 * request, nginx sends the bytes; both processes' CPU counted). Same client, same concurrency, same
 * file, in the same run. Judged by server
 * CPU per GiB: PanelFleet's process against nginx's worker (the master only waits). The client is
 * CLIENTS (4) processes (lib/download-worker.ts) so that it is not the bottleneck; the busiest
 * one's share of a core is printed, and flagged at 85% or more.
 *
 * Each round, CUT_SHARE of the panels (30%) lose their connection at a random byte and resume
 * with `Range: bytes=N-` (If-Range with the ETag), as docs/device-protocol.md section 6 says; the
 * server's resident memory is sampled every 100 ms during its rounds (growth over its idle RSS).
 *
 * Environment: SIZE_MB (256), CONCURRENCY (50), CUT_SHARE (0.3), ROUNDS (3), CLIENTS (4).
 */
import crypto from 'node:crypto';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  describeGenerator,
  readAll,
  shareBetween,
  threadsCpuSeconds,
  type GeneratorShare,
} from './lib/cpu.js';
import type { DownloadJob, DownloadReply, DownloadRequest } from './lib/download-worker.js';
import { nginxBinary, startNginx } from './lib/nginx.js';
import { UrlSigner } from '../apps/server/src/modules/downloads/signing.js';
import {
  cpuSeconds,
  fmt,
  freePort,
  loadAverage,
  machineDescription,
  rssBytes,
  onCleanup,
  printTable,
  runBenchmark,
  sleep,
  startServer,
  stopChild,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const SIZE_MB = Number(process.env.SIZE_MB ?? 256);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 50);
const CUT_SHARE = Number(process.env.CUT_SHARE ?? 0.3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** Client processes the downloads are spread over, so that the client is not the bottleneck. */
const CLIENTS = Number(process.env.CLIENTS ?? 4);
const PEPPER = 'bench-pepper-0123456789abcdef';
/** The internal location nginx sends accelerated downloads from. */
const ACCEL = '/_panelfleet_files/';

interface Target {
  name: string;
  /** The process whose memory is sampled. */
  pid: number;
  /** CPU seconds of the process that does the sending (nginx: its worker, not the master). */
  cpu(): number;
  /** The URL and headers for download number i. */
  request(i: number): { url: string; headers: Record<string, string> };
}

/** A client process of lib/download-worker.ts. */
function startClient() {
  const child = fork(path.join(import.meta.dirname, 'lib/download-worker.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  onCleanup(() => stopChild(child, 2000));
  return child;
}

function runJobs(client: ChildProcess, request: DownloadRequest) {
  return new Promise<number>((resolve, reject) => {
    client.once('message', (reply: DownloadReply) =>
      reply.ok ? resolve(reply.bytes) : reject(new Error(reply.message)),
    );
    client.send(request);
  });
}

async function measure(target: Target, size: number, clients: ChildProcess[], cutShare = CUT_SHARE) {
  const seconds: number[] = [];
  const cpu0 = target.cpu();
  const idleRss = rssBytes(target.pid);
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(target.pid))), 100);
  const cuts = Math.round(CONCURRENCY * cutShare);
  const clientPids = clients.map((c) => c.pid!);
  const clientShares: GeneratorShare[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const jobs: DownloadJob[] = Array.from({ length: CONCURRENCY }, (_, i) => ({
      ...target.request(i),
      ...(i < cuts ? { cutAt: 1 + Math.floor(Math.random() * (size - 2)) } : {}),
    }));
    const client0 = readAll(clientPids);
    const t0 = process.hrtime.bigint();
    await Promise.all(
      clients.map((client, c) =>
        runJobs(client, { size, jobs: jobs.filter((_, i) => i % clients.length === c) }),
      ),
    );
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    seconds.push(wall);
    clientShares.push(shareBetween(client0, readAll(clientPids), wall));
    await sleep(300);
  }
  clearInterval(sampler);
  const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)]!;
  const cpu = (target.cpu() - cpu0) / ROUNDS;
  return {
    seconds,
    median,
    mibPerSecond: (CONCURRENCY * size) / 2 ** 20 / median,
    cpu,
    cpuPerGiB: cpu / ((CONCURRENCY * size) / 2 ** 30),
    rssGrowthMiB: (peakRss - idleRss) / 2 ** 20,
    clients: clientShares.reduce((worst, share) => (share.busiest > worst.busiest ? share : worst)),
  };
}

async function waitForPort(port: number) {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      http
        .get(`http://127.0.0.1:${port}/`, (res) => (res.resume(), resolve(true)))
        .on('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on ${port}`);
}

/** The least a Node server can do: stream the file to every GET. */
async function startNodeStatic(file: string): Promise<{ pid: number; port: number; close(): Promise<void> }> {
  const port = await freePort();
  const code = `require('node:http').createServer((q, s) => { const f = ${JSON.stringify(file)}; s.writeHead(200, { 'content-length': require('node:fs').statSync(f).size }); require('node:fs').createReadStream(f, { highWaterMark: 1048576 }).pipe(s); }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit'] });
  onCleanup(() => stopChild(child));
  await waitForPort(port);
  return { pid: child.pid!, port, close: () => stopChild(child) };
}

/**
 * CONCURRENCY panels enrolled as the protocol says, each with a download URL at `urlBase` that the
 * bench signs with the server's key (same pepper).
 */
async function enrollPanels(
  serverUrl: string,
  urlBase: string,
  relative: string,
  size: number,
  sha256: string,
) {
  const operator = await Operator.signIn(serverUrl);
  const secret = await operator.enrollmentSecret();
  const signer = UrlSigner.fromPepper(PEPPER);
  return Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      const serial = `OTA-BENCH-${String(i).padStart(3, '0')}`;
      const response = await fetch(`${serverUrl}/device/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ v: 1, serial, enrollmentSecret: secret }),
      });
      const { dataObject } = (await response.json()) as { dataObject: { password: string } };
      const token = signer.sign({
        file: relative,
        deviceKey: serial,
        size,
        sha256,
        expiresAt: Date.now() + 3_600_000,
      });
      return {
        url: `${urlBase}/device/files/bench.bin?t=${token}`,
        headers: {
          authorization: `Basic ${Buffer.from(`${serial}:${dataObject.password}`).toString('base64')}`,
        },
      };
    }),
  );
}

runBenchmark('bench:ota', 1_800_000, async () => {
  const loads = [loadAverage()];
  console.log(
    `OTA download: a ${SIZE_MB} MiB file, ${CONCURRENCY} panels at once (${Math.round(CONCURRENCY * CUT_SHARE)} cut at a random byte and resumed by Range), ${ROUNDS} rounds per server; load average ${loads[0]}`,
  );
  nginxBinary(); // the peer: a machine without nginx stops here, before the long half
  const server = await startServer({ PASSWORD_PEPPER: PEPPER });
  const files = path.join(server.dataDir, 'files');
  fs.mkdirSync(path.join(files, 'firmware'), { recursive: true });
  const relative = 'firmware/bench.bin';
  const file = path.join(files, relative);
  const content = crypto.randomBytes(SIZE_MB * 2 ** 20);
  fs.writeFileSync(file, content);
  const sha256 = crypto.createHash('sha256').update(content).digest('hex');
  const size = content.length;

  const panels = await enrollPanels(server.url, server.url, relative, size, sha256);

  const clients = Array.from({ length: CLIENTS }, startClient);
  const product = await measure(
    {
      name: 'PanelFleet',
      pid: server.child.pid!,
      cpu: () => cpuSeconds(server.child.pid!),
      request: (i) => panels[i]!,
    },
    size,
    clients,
  );
  console.log(`PanelFleet: ${product.seconds.map((s) => fmt(s, 2)).join(' / ')} s per round`);
  await server.stop();
  loads.push(loadAverage());

  // The same behind nginx with FILES_ACCEL_REDIRECT: the server checks, nginx sends. Its CPU is
  // the server's and nginx's worker's together.
  const accelServer = await startServer({ PASSWORD_PEPPER: PEPPER, FILES_ACCEL_REDIRECT: ACCEL });
  const accelFiles = path.join(accelServer.dataDir, 'files');
  fs.mkdirSync(path.join(accelFiles, 'firmware'), { recursive: true });
  fs.linkSync(file, path.join(accelFiles, relative));
  const front = await startNginx(accelFiles, 4096, {
    upstreamPort: Number(new URL(accelServer.url).port),
    location: ACCEL,
  });
  const accelPanels = await enrollPanels(
    accelServer.url,
    `http://127.0.0.1:${front.port}`,
    relative,
    size,
    sha256,
  );
  const accelerated = await measure(
    {
      name: 'PanelFleet behind nginx',
      pid: accelServer.child.pid!,
      cpu: () => cpuSeconds(accelServer.child.pid!) + threadsCpuSeconds(front.workerPid),
      request: (i) => accelPanels[i]!,
    },
    size,
    clients,
  );
  console.log(
    `PanelFleet behind nginx: ${accelerated.seconds.map((s) => fmt(s, 2)).join(' / ')} s per round`,
  );
  await front.stop();
  await accelServer.stop();
  loads.push(loadAverage());

  const nginx = await startNginx(files);
  const baseline = await measure(
    {
      name: 'nginx',
      pid: nginx.workerPid,
      cpu: () => threadsCpuSeconds(nginx.workerPid),
      request: () => ({ url: `http://127.0.0.1:${nginx.port}/${relative}`, headers: {} }),
    },
    size,
    clients,
  );
  console.log(`nginx: ${baseline.seconds.map((s) => fmt(s, 2)).join(' / ')} s per round`);
  await nginx.stop();
  const nodeStatic = await startNodeStatic(file);
  const raw = await measure(
    {
      name: 'node',
      pid: nodeStatic.pid,
      cpu: () => cpuSeconds(nodeStatic.pid),
      request: () => ({ url: `http://127.0.0.1:${nodeStatic.port}/`, headers: {} }),
    },
    size,
    clients,
    // The smallest static server answers no Range: its panels are never cut.
    0,
  );
  console.log(`Node static: ${raw.seconds.map((s) => fmt(s, 2)).join(' / ')} s per round`);
  await nodeStatic.close();
  loads.push(loadAverage());

  const row = (r: typeof product) =>
    `${fmt(r.mibPerSecond)} MiB/s (median round ${fmt(r.median, 2)} s); CPU ${fmt(r.cpuPerGiB, 2)} s per GiB; RSS growth ${fmt(r.rssGrowthMiB, 1)} MiB; clients: ${describeGenerator(r.clients)}`;
  printTable(
    `OTA download, ${SIZE_MB} MiB x ${CONCURRENCY} panels, ${Math.round(CONCURRENCY * CUT_SHARE)} resumed by Range, ${CLIENTS} client processes (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`,
    [
      ['PanelFleet (signed URL, Basic credentials, Range-capable)', row(product)],
      [
        'PanelFleet behind nginx (FILES_ACCEL_REDIRECT; CPU of the server and the nginx worker)',
        row(accelerated),
      ],
      ['nginx (sendfile), same file; CPU of its worker', row(baseline)],
      ['Node static server (fs stream -> response; no Range, so no cuts)', row(raw)],
      [
        'server CPU per GiB, PanelFleet / nginx worker',
        `${fmt(product.cpuPerGiB / baseline.cpuPerGiB, 2)}x (goal <= 2x)`,
      ],
      [
        'CPU per GiB, PanelFleet behind nginx (both processes) / nginx worker',
        `${fmt(accelerated.cpuPerGiB / baseline.cpuPerGiB, 2)}x (goal <= 2x)`,
      ],
      ['throughput, PanelFleet / nginx', `${fmt(product.mibPerSecond / baseline.mibPerSecond, 2)}x`],
      ['server CPU per GiB, PanelFleet / Node static', `${fmt(product.cpuPerGiB / raw.cpuPerGiB, 2)}x`],
      [
        'PanelFleet server RSS growth during its rounds',
        `${fmt(product.rssGrowthMiB, 1)} MiB (budget <= 64 MiB)`,
      ],
      [
        'load average (1, 5, 15 min): start / after PanelFleet / behind nginx / after baselines',
        loads.join(' / '),
      ],
    ],
  );
});
