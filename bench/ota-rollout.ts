/**
 * `npm run bench:ota-rollout`: a staged rollout end to end. 2,000 simulated panels (the real
 * simulator: enrollment, MQTT, signed manifest check, download with the panel's credentials and
 * SHA-256, acknowledgements with phases) take a 4 MiB image from a force upgrade in waves (5%, then
 * 25% steps) with a download cap of CAP panels at once. The baseline is nginx serving the same
 * 4 MiB file 2,000 times to the same kind of client (download and SHA-256), CAP at a time. The
 * ratio says what the rollout machinery (waves, slots, commands, acknowledgements) costs over
 * moving the bytes.
 *
 * Environment: PANELS (2000), CAP (50), SIZE_MB (4).
 */
import crypto from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startFleet } from '../apps/simulator/src/fleet.js';
import {
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

const PANELS = Number(process.env.PANELS ?? 2000);
const CAP = Number(process.env.CAP ?? 50);
const SIZE = Number(process.env.SIZE_MB ?? 4) * 2 ** 20;

function fetchHashed(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
        const hash = crypto.createHash('sha256');
        res.on('data', (c: Buffer) => hash.update(c));
        res.on('end', () => resolve(hash.digest('hex')));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function nginxBaseline(file: string, sha256: string): Promise<number | undefined> {
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
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      'events { worker_connections 4096; }',
      `http { access_log off; sendfile on; tcp_nopush on; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};`,
      `  server { listen 127.0.0.1:${port}; root ${path.dirname(file)}; } }`,
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  onCleanup(() => stopChild(child));
  await sleep(500);
  const url = `http://127.0.0.1:${port}/${path.basename(file)}`;
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: CAP }, async () => {
      while (next < PANELS) {
        next++;
        if ((await fetchHashed(url)) !== sha256) throw new Error('nginx served other bytes');
      }
    }),
  );
  return Date.now() - t0;
}

runBenchmark('bench:ota-rollout', 1_200_000, async () => {
  const loads = [loadAverage()];
  console.log(
    `staged rollout: ${PANELS} panels, ${SIZE / 2 ** 20} MiB image, download cap ${CAP}; load ${loads[0]}`,
  );
  const server = await startServer({ ROLLOUT_MAX_DOWNLOADS: String(CAP), ROLLOUT_JITTER_MS: '1000' });
  const operator = await Operator.signIn(server.url);
  const secret = await operator.enrollmentSecret();
  const fleet = await startFleet({
    url: server.url,
    mqttUrl: server.mqttUrl,
    enrollmentSecret: secret,
    count: PANELS,
    prefix: 'ROLL',
    telemetryMs: 3_600_000,
    abnormalLogChance: 0,
    installMs: 0,
    concurrency: 100,
    log: () => undefined,
  });
  onCleanup(() => fleet.stop());
  const ids = await operator.deviceIds();
  if (ids.length !== PANELS) throw new Error(`${ids.length} panels listed`);
  const label = await operator.label('rollout', ids);

  const image = crypto.randomBytes(SIZE);
  const sha256 = crypto.createHash('sha256').update(image).digest('hex');
  const cookie = (operator as unknown as { cookies: Map<string, string> }).cookies.get('pf_session');
  const created = await fetch(`${server.url}/upload/tus`, {
    method: 'POST',
    headers: {
      cookie: `pf_session=${cookie}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(SIZE),
      'upload-metadata': `kind ${Buffer.from('firmware').toString('base64')},filename ${Buffer.from('fw.bin').toString('base64')}`,
    },
  });
  const uploadId = created.headers.get('location')!.split('/').pop()!;
  await fetch(`${server.url}/upload/tus/${uploadId}`, {
    method: 'PATCH',
    headers: {
      cookie: `pf_session=${cookie}`,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: image,
  });
  const types = (await operator.request('GET', '/otaFile/machineTypeOptions')) as {
    listObject: Array<{ machineTypeId: number }>;
  };
  const file = (await operator.request('POST', '/otaFile/insert', {
    uploadId,
    otaVersion: '2.0.0',
    fitMachineTypeId: types.listObject.map((t) => t.machineTypeId).join(','),
  })) as { dataObject: { id: number } };

  const rss0 = rssBytes(server.child.pid!);
  let peakRss = rss0;
  let peakDownloading = 0;
  const t0 = Date.now();
  const task = (await operator.request('POST', '/otaFile/forceUpdate', {
    tagIds: String(label),
    otaFileId: String(file.dataObject.id),
    waveMode: 'percent',
    firstWave: '5',
    waveStep: '25',
    successShare: '90',
    maxDownloads: String(CAP),
  })) as { dataObject: { otaTaskId: number; waveCount: number } };
  let view: { state: string; counts: Record<string, number> };
  for (;;) {
    view = (
      (await operator.request('GET', `/otaTask/selectById?otaTaskId=${task.dataObject.otaTaskId}`)) as {
        dataObject: typeof view;
      }
    ).dataObject;
    peakDownloading = Math.max(peakDownloading, (view.counts.sent ?? 0) + (view.counts.downloading ?? 0));
    peakRss = Math.max(peakRss, rssBytes(server.child.pid!));
    if (view.state === 'completed') break;
    await sleep(200);
  }
  const productMs = Date.now() - t0;
  const installed = fleet.panels.filter((p) => p.state.otaVersion === '2.0.0').length;
  loads.push(loadAverage());
  await fleet.stop();
  const stored = fs.readdirSync(path.join(server.dataDir, 'files', 'ota'))[0]!;
  const copy = path.join(tempDir('pf-rollout-'), 'fw.bin');
  fs.copyFileSync(path.join(server.dataDir, 'files', 'ota', stored), copy);
  await server.stop();
  const nginxMs = await nginxBaseline(copy, sha256);
  loads.push(loadAverage());
  printTable(
    `staged rollout of ${SIZE / 2 ** 20} MiB to ${PANELS} panels, cap ${CAP} (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`,
    [
      [
        'PanelFleet: force upgrade to all panels succeeded',
        `${fmt(productMs / 1000, 1)} s (${task.dataObject.waveCount} waves; ${installed} of ${PANELS} installed; ${view!.counts.succeeded} succeeded, ${view!.counts.failed} failed)`,
      ],
      ['most panels sent or downloading at once (sampled)', `${peakDownloading} (cap ${CAP})`],
      ['server RSS growth', `${fmt((peakRss - rss0) / 2 ** 20, 1)} MiB`],
      [
        'nginx: the same bytes to the same client, CAP at a time',
        nginxMs === undefined ? 'nginx not installed: no baseline' : `${fmt(nginxMs / 1000, 1)} s`,
      ],
      ['ratio PanelFleet / nginx', nginxMs === undefined ? 'n/a' : `${fmt(productMs / nginxMs, 2)}x`],
      ['load average: start / after rollout / after nginx', loads.join(' / ')],
    ],
  );
});
