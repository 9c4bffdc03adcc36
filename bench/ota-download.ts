/**
 * `npm run bench:ota`: panels downloading one firmware file over HTTP from PanelFleet's
 * signed-URL endpoint (HMAC check, the panel's credentials, file stat, Range-capable stream),
 * against nginx serving the same file from the same directory (sendfile), when nginx is
 * installed, and against the smallest Node static server (fs stream piped to the response) as a
 * second baseline. Same client, same concurrency, same file, in the same run.
 *
 * Each round, CUT_SHARE of the panels (30%) lose their connection at a random byte and resume
 * with `Range: bytes=N-` (If-Range with the ETag), as docs/device-protocol.md section 6 says; the
 * server's resident memory is sampled every 100 ms during its rounds (growth over its idle RSS).
 *
 * Environment: SIZE_MB (256), CONCURRENCY (50), CUT_SHARE (0.3), ROUNDS (3).
 */
import crypto from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
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
  tempDir,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const SIZE_MB = Number(process.env.SIZE_MB ?? 256);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 50);
const CUT_SHARE = Number(process.env.CUT_SHARE ?? 0.3);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PEPPER = 'bench-pepper-0123456789abcdef';

interface Target {
  name: string;
  pid: number;
  /** The URL and headers for download number i. */
  request(i: number): { url: string; headers: Record<string, string> };
}

/**
 * Downloads the whole file, counting bytes. With `cutAt`, the connection is dropped once that many
 * bytes arrived and the rest is fetched with `Range: bytes=N-` (and If-Range with the ETag), which
 * must answer 206 from exactly N. Rejects on any other status or a short body.
 */
function download(
  url: string,
  headers: Record<string, string>,
  size: number,
  cutAt?: number,
): Promise<number> {
  const get = (extra: Record<string, string>, expect: number, from: number, stopAt?: number) =>
    new Promise<{ bytes: number; etag: string | undefined }>((resolve, reject) => {
      const request = http.get(url, { headers: { ...headers, ...extra }, agent: false }, (res) => {
        if (res.statusCode !== expect) {
          res.resume();
          return reject(new Error(`${url}: HTTP ${res.statusCode}, expected ${expect}`));
        }
        if (expect === 206 && !String(res.headers['content-range']).startsWith(`bytes ${from}-`))
          return reject(new Error(`resumed at ${String(res.headers['content-range'])}, expected ${from}`));
        const etag = res.headers.etag;
        let bytes = 0;
        let done = false;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (stopAt !== undefined && !done && from + bytes >= stopAt) {
            done = true;
            request.destroy();
            resolve({ bytes, etag });
          }
        });
        res.on('end', () => {
          if (done) return;
          if (from + bytes === size) resolve({ bytes, etag });
          else reject(new Error(`${from + bytes} of ${size} bytes`));
        });
        res.on('error', (err) => (done ? undefined : reject(err)));
      });
      request.on('error', (err) => (stopAt !== undefined ? undefined : reject(err)));
    });
  return (async () => {
    if (cutAt === undefined) return (await get({}, 200, 0)).bytes;
    const first = await get({}, 200, 0, cutAt);
    const rest = await get(
      { range: `bytes=${first.bytes}-`, ...(first.etag ? { 'if-range': first.etag } : {}) },
      206,
      first.bytes,
    );
    return first.bytes + rest.bytes;
  })();
}

async function measure(target: Target, size: number, cutShare = CUT_SHARE) {
  const seconds: number[] = [];
  const cpu0 = cpuSeconds(target.pid);
  const idleRss = rssBytes(target.pid);
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssBytes(target.pid))), 100);
  const cuts = Math.round(CONCURRENCY * cutShare);
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) => {
        const { url, headers } = target.request(i);
        const cutAt = i < cuts ? 1 + Math.floor(Math.random() * (size - 2)) : undefined;
        return download(url, headers, size, cutAt);
      }),
    );
    seconds.push(Number(process.hrtime.bigint() - t0) / 1e9);
    await sleep(300);
  }
  clearInterval(sampler);
  const best = Math.min(...seconds);
  const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)]!;
  return {
    seconds,
    median,
    best,
    mibPerSecond: (CONCURRENCY * size) / 2 ** 20 / median,
    cpu: (cpuSeconds(target.pid) - cpu0) / ROUNDS,
    rssGrowthMiB: (peakRss - idleRss) / 2 ** 20,
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

/** Debian's nginx with a throwaway config: one 127.0.0.1 server over the files directory, sendfile on. */
async function startNginx(root: string): Promise<{ pid: number; port: number } | undefined> {
  let binary: string;
  try {
    binary = execFileSync('which', ['nginx']).toString().trim();
  } catch {
    return undefined;
  }
  const dir = tempDir('pf-nginx-');
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    [
      // Started by root, nginx's workers would drop to `nobody` and could not read the private temp dirs.
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      'events { worker_connections 1024; }',
      `http { access_log off; sendfile on; tcp_nopush on; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};`,
      `  server { listen 127.0.0.1:${port}; root ${root}; } }`,
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  onCleanup(() => stopChild(child));
  await waitForPort(port);
  return { pid: child.pid!, port };
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

runBenchmark('bench:ota', 1_800_000, async () => {
  const loads = [loadAverage()];
  console.log(
    `OTA download: a ${SIZE_MB} MiB file, ${CONCURRENCY} panels at once (${Math.round(CONCURRENCY * CUT_SHARE)} cut at a random byte and resumed by Range), ${ROUNDS} rounds per server; load average ${loads[0]}`,
  );
  const server = await startServer({ PASSWORD_PEPPER: PEPPER });
  const files = path.join(server.dataDir, 'files');
  fs.mkdirSync(path.join(files, 'firmware'), { recursive: true });
  const relative = 'firmware/bench.bin';
  const file = path.join(files, relative);
  const content = crypto.randomBytes(SIZE_MB * 2 ** 20);
  fs.writeFileSync(file, content);
  const sha256 = crypto.createHash('sha256').update(content).digest('hex');
  const size = content.length;

  // Panels enroll as the protocol says; the bench signs their URLs with the server's key (same pepper).
  const operator = await Operator.signIn(server.url);
  const secret = await operator.enrollmentSecret();
  const signer = UrlSigner.fromPepper(PEPPER);
  const panels = await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      const serial = `OTA-BENCH-${String(i).padStart(3, '0')}`;
      const response = await fetch(`${server.url}/device/enroll`, {
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
        url: `${server.url}/device/files/bench.bin?t=${token}`,
        headers: {
          authorization: `Basic ${Buffer.from(`${serial}:${dataObject.password}`).toString('base64')}`,
        },
      };
    }),
  );

  const product = await measure(
    { name: 'PanelFleet', pid: server.child.pid!, request: (i) => panels[i]! },
    size,
  );
  console.log(`PanelFleet: ${product.seconds.map((s) => fmt(s, 2)).join(' / ')} s per round`);
  await server.stop();
  loads.push(loadAverage());

  const nginx = await startNginx(files);
  const baseline = nginx
    ? await measure(
        {
          name: 'nginx',
          pid: nginx.pid,
          request: () => ({ url: `http://127.0.0.1:${nginx.port}/${relative}`, headers: {} }),
        },
        size,
      )
    : undefined;
  if (baseline) console.log(`nginx: ${baseline.seconds.map((s) => fmt(s, 2)).join(' / ')} s per round`);
  else
    console.log('nginx: not installed on this machine (`which nginx` finds nothing); nginx baseline skipped');
  const nodeStatic = await startNodeStatic(file);
  const raw = await measure(
    {
      name: 'node',
      pid: nodeStatic.pid,
      request: () => ({ url: `http://127.0.0.1:${nodeStatic.port}/`, headers: {} }),
    },
    size,
    // The smallest static server answers no Range: its panels are never cut.
    0,
  );
  console.log(`Node static: ${raw.seconds.map((s) => fmt(s, 2)).join(' / ')} s per round`);
  await nodeStatic.close();
  loads.push(loadAverage());

  const row = (r: typeof product) =>
    `${fmt(r.mibPerSecond)} MiB/s (median round ${fmt(r.median, 2)} s; server CPU ${fmt(r.cpu, 2)} s per round; RSS growth ${fmt(r.rssGrowthMiB, 1)} MiB)`;
  printTable(
    `OTA download, ${SIZE_MB} MiB x ${CONCURRENCY} panels, ${Math.round(CONCURRENCY * CUT_SHARE)} resumed by Range (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`,
    [
      ['PanelFleet (signed URL, Basic credentials, Range-capable)', row(product)],
      ['nginx (sendfile), same file', baseline ? row(baseline) : 'not installed: no baseline'],
      ['Node static server (fs stream -> response; no Range, so no cuts)', row(raw)],
      [
        'ratio PanelFleet / nginx',
        baseline ? `${fmt(product.mibPerSecond / baseline.mibPerSecond, 2)}x (budget >= 0.7x)` : 'n/a',
      ],
      ['ratio PanelFleet / Node static', `${fmt(product.mibPerSecond / raw.mibPerSecond, 2)}x`],
      [
        'PanelFleet server RSS growth during its rounds',
        `${fmt(product.rssGrowthMiB, 1)} MiB (budget <= 64 MiB)`,
      ],
      ['load average (1, 5, 15 min): start / after PanelFleet / after baselines', loads.join(' / ')],
    ],
  );
});
