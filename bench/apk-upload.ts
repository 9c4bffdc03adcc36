/**
 * `npm run bench:apk-upload`: a 200 MB APK (a real one: binary manifest, resources, launcher
 * icon, v2 signature, and an uncompressed asset that makes up the size) through the console's
 * way in: the resumable tus upload in 8 MiB PATCHes (as apps/web/src/uploads/resumableUpload.ts
 * sends them), then the call that claims it (the server reads the zip directory, the manifest,
 * the icon and verifies the v2 signature, its content digest from the chunk digests the upload
 * took as the bytes arrived, then renames it into place).
 *
 * Baselines in the same run, with the same bytes: writing them to a file on the same disk
 * (8 MiB writes, no fsync, as the upload store), and the smallest Node HTTP server that writes a request
 * body to a file. The server's resident memory is sampled every 100 ms while it works; growth is
 * over its RSS before the round.
 *
 * The server's CPU per round is set against the CPU of hashing the same file alone (read in 1 MiB
 * pieces, SHA-256 and MD5 with node:crypto: what every upload used to compute), measured in this
 * process in the same run.
 *
 * Environment: SIZE_MB (200), ROUNDS (3), STORE (local; `s3`: the server's file store and its
 * uploads in an s3rver bucket started here, apps/server/test/s3-server.ts).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { apkSigner, buildApk } from '../apps/server/test/apk-fixtures.js';
import { startS3 } from '../apps/server/test/s3-server.js';
import {
  cpuSeconds,
  fmt,
  freePort,
  loadAverage,
  machineDescription,
  onCleanup,
  printTable,
  rssBytes,
  runBenchmark,
  sleep,
  startServer,
  stopChild,
  tempDir,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const SIZE_MB = Number(process.env.SIZE_MB ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CHUNK = 8 * 2 ** 20;
const MiB = 2 ** 20;
const STORE = process.env.STORE ?? 'local';

/** CPU seconds of this process to read `file` and hash it with SHA-256 and MD5. */
function hashingCpu(file: string) {
  const before = process.cpuUsage();
  const sha256 = crypto.createHash('sha256');
  const md5 = crypto.createHash('md5');
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(MiB);
  for (let read = fs.readSync(fd, buffer); read > 0; read = fs.readSync(fd, buffer)) {
    sha256.update(buffer.subarray(0, read));
    md5.update(buffer.subarray(0, read));
  }
  fs.closeSync(fd);
  sha256.digest();
  md5.digest();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Peak RSS of a process over its RSS now, while `work` runs. */
async function withRss<T>(pid: number, work: () => Promise<T>) {
  const idle = rssBytes(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 100);
  try {
    const value = await work();
    peak = Math.max(peak, rssBytes(pid));
    return { value, growthMiB: (peak - idle) / MiB };
  } finally {
    clearInterval(sampler);
  }
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** One tus upload of the file in CHUNK-sized PATCHes, each read from disk as the browser reads a slice. */
async function tusUpload(url: string, cookie: string, file: string, size: number) {
  const created = await fetch(`${url}/upload/tus`, {
    method: 'POST',
    headers: {
      cookie,
      'tus-resumable': '1.0.0',
      'upload-length': String(size),
      'upload-metadata': `kind ${b64('apk')},filename ${b64('bench.apk')}`,
    },
  });
  if (created.status !== 201) throw new Error(`tus create: HTTP ${created.status} ${await created.text()}`);
  const uploadId = created.headers.get('location')!.split('/').pop()!;
  const handle = await fs.promises.open(file, 'r');
  try {
    for (let offset = 0; offset < size; offset += CHUNK) {
      const length = Math.min(CHUNK, size - offset);
      const slice = Buffer.alloc(length);
      await handle.read(slice, 0, length, offset);
      const patched = await fetch(`${url}/upload/tus/${uploadId}`, {
        method: 'PATCH',
        headers: {
          cookie,
          'tus-resumable': '1.0.0',
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: slice,
      });
      await patched.arrayBuffer();
      if (patched.status !== 204) throw new Error(`tus patch at ${offset}: HTTP ${patched.status}`);
    }
  } finally {
    await handle.close();
  }
  return uploadId;
}

/** The same bytes written to a file on the same disk, in CHUNK-sized writes (no fsync: the upload store does none either). */
async function diskWrite(file: string, target: string, size: number) {
  const input = await fs.promises.open(file, 'r');
  const output = await fs.promises.open(target, 'w');
  try {
    const slice = Buffer.alloc(CHUNK);
    for (let offset = 0; offset < size; offset += CHUNK) {
      const { bytesRead } = await input.read(slice, 0, Math.min(CHUNK, size - offset), offset);
      await output.write(slice, 0, bytesRead);
    }
  } finally {
    await input.close();
    await output.close();
  }
  await fs.promises.rm(target);
}

/** The smallest HTTP server that stores a request body in a file, in its own process. */
async function startNodeSink(dir: string) {
  const port = await freePort();
  const code = `const fs = require('node:fs'); const path = require('node:path'); let n = 0;
require('node:http').createServer((q, s) => { const f = path.join(${JSON.stringify(dir)}, 'sink-' + (n++));
  const out = fs.createWriteStream(f); q.pipe(out); out.on('close', () => { fs.rmSync(f); s.end('ok'); }); })
.listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  onCleanup(() => stopChild(child));
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { pid: child.pid!, url: `http://127.0.0.1:${port}/`, close: () => stopChild(child) };
}

async function httpSink(url: string, file: string) {
  await new Promise<void>((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', agent: false }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    request.on('error', reject);
    fs.createReadStream(file, { highWaterMark: CHUNK }).pipe(request);
  });
}

async function timed(work: () => Promise<unknown>) {
  const t0 = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

runBenchmark('bench:apk-upload', 1_800_000, async () => {
  const loads = [loadAverage()];
  const work = tempDir('pf-bench-apk-');
  const file = path.join(work, 'bench.apk');
  const signer = apkSigner('Bench Signer');
  const apkOf = async (versionCode: number) =>
    buildApk(
      {
        packageName: 'com.bench.large',
        versionCode,
        versionName: `1.0.${versionCode}`,
        label: 'Large',
        padding: SIZE_MB * 1_000_000 - 64 * 1024,
      },
      signer,
    );
  const first = await apkOf(1);
  fs.writeFileSync(file, first);
  const size = first.length;
  console.log(
    `APK upload: a ${fmt(size / 1e6)} MB APK (${fmt(size / MiB, 1)} MiB), ${ROUNDS} rounds each; load average ${loads[0]}`,
  );

  const s3 = STORE === 's3' ? await startS3('bench-apk') : undefined;
  onCleanup(async () => s3?.stop());
  const server = await startServer(s3?.env ?? {});
  const operator = await Operator.signIn(server.url);
  const cookie = operator.cookieHeader();
  const pid = server.child.pid!;
  const upload: number[] = [];
  const claim: number[] = [];
  const rss: number[] = [];
  let cpu = 0;
  let markId = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // Each round is a new version of the card (the server refuses the same versionCode twice).
    const bytes = round === 0 ? first : await apkOf(round + 1);
    fs.writeFileSync(file, bytes);
    await sleep(300);
    const cpu0 = cpuSeconds(pid);
    const measured = await withRss(pid, async () => {
      let uploadId = '';
      const up = await timed(
        async () => (uploadId = await tusUpload(server.url, cookie, file, bytes.length)),
      );
      const read = await timed(async () => {
        const reply =
          round === 0
            ? await operator.request('POST', '/apkUpgrade/uploadApkPackage', { uploadId, mark: 'B-E-N-C' })
            : await operator.request('POST', '/apkUpgrade/uploadNewApkPackage', {
                uploadId,
                apkMarkId: String(markId),
              });
        if (reply.hhtStatus !== 'success') throw new Error(`claim: ${JSON.stringify(reply)}`);
        markId = (reply.dataObject as { apkMarkId: number }).apkMarkId;
      });
      return { up, read };
    });
    cpu += cpuSeconds(pid) - cpu0;
    upload.push(measured.value.up);
    claim.push(measured.value.read);
    rss.push(measured.growthMiB);
    console.log(
      `PanelFleet round ${round + 1}: upload ${fmt(measured.value.up, 2)} s, read and check ${fmt(measured.value.read, 2)} s, RSS growth ${fmt(measured.growthMiB, 1)} MiB`,
    );
  }
  await server.stop();
  loads.push(loadAverage());
  const hashing: number[] = [];
  for (let round = 0; round < ROUNDS; round++) hashing.push(hashingCpu(file));

  const disk: number[] = [];
  for (let round = 0; round < ROUNDS; round++)
    disk.push(await timed(() => diskWrite(file, path.join(work, 'copy.bin'), size)));
  console.log(`disk write: ${disk.map((s) => fmt(s, 2)).join(' / ')} s`);
  const sink = await startNodeSink(work);
  const sinkRounds: number[] = [];
  const sinkRss: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const measured = await withRss(sink.pid, () => timed(() => httpSink(sink.url, file)));
    sinkRounds.push(measured.value);
    sinkRss.push(measured.growthMiB);
  }
  console.log(`Node HTTP sink: ${sinkRounds.map((s) => fmt(s, 2)).join(' / ')} s`);
  await sink.close();
  loads.push(loadAverage());

  const mbps = (seconds: number) => fmt(size / MiB / seconds);
  const total = upload.map((u, i) => u + claim[i]!);
  printTable(
    `APK upload, ${fmt(size / 1e6)} MB (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`,
    [
      [
        'PanelFleet tus upload (8 MiB PATCHes, hashed as they arrive)',
        `${fmt(median(upload), 2)} s median (${mbps(median(upload))} MiB/s)`,
      ],
      [
        'PanelFleet read and check (zip, manifest, icon, v2 signature), then rename',
        `${fmt(median(claim), 2)} s median`,
      ],
      [
        'PanelFleet upload + read, end to end',
        `${fmt(median(total), 2)} s median (${mbps(median(total))} MiB/s)`,
      ],
      [
        'disk write of the same bytes (8 MiB writes, no fsync)',
        `${fmt(median(disk), 2)} s median (${mbps(median(disk))} MiB/s)`,
      ],
      [
        'Node HTTP server writing the body to a file',
        `${fmt(median(sinkRounds), 2)} s median (${mbps(median(sinkRounds))} MiB/s)`,
      ],
      ['ratio tus upload / disk write', `${fmt(median(upload) / median(disk), 2)}x the time`],
      ['ratio end to end / disk write', `${fmt(median(total) / median(disk), 2)}x the time`],
      ['ratio tus upload / Node HTTP sink', `${fmt(median(upload) / median(sinkRounds), 2)}x the time`],
      [
        'PanelFleet server RSS growth (peak over the round, per round)',
        `${rss.map((r) => fmt(r, 1)).join(' / ')} MiB (file ${fmt(size / MiB)} MiB)`,
      ],
      ['Node HTTP sink RSS growth', `${sinkRss.map((r) => fmt(r, 1)).join(' / ')} MiB`],
      [`PanelFleet server CPU per round (file store: ${STORE})`, `${fmt(cpu / ROUNDS, 2)} s`],
      ['hashing the file alone (read, SHA-256 and MD5), CPU', `${fmt(median(hashing), 2)} s median`],
      ['ratio server CPU / hashing the file (goal < 1.5x)', `${fmt(cpu / ROUNDS / median(hashing), 2)}x`],
      ['load average (1, 5, 15 min): start / after PanelFleet / after baselines', loads.join(' / ')],
    ],
  );
});
