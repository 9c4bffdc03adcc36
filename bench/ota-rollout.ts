/**
 * `npm run bench:ota-rollout`: a staged rollout end to end. 2,000 simulated panels (the real
 * simulator: enrollment, MQTT, signed manifest check, download with the panel's credentials and
 * SHA-256, acknowledgements with phases) take a 4 MiB image from a force upgrade in waves (5%, then
 * 25% steps) with a download cap of CAP panels at once. The baseline is nginx (a machine without it
 * is an error) serving the same 4 MiB file 2,000 times, CAP at a time, to curl processes (a client
 * that is not the bottleneck). The ratios say what the rollout machinery (waves, slots, commands,
 * acknowledgements, and the panels' own work on the same cores) costs over moving the bytes: in
 * wall time, and in server CPU per GiB against nginx's worker. The simulated panels run in this
 * process: its share of a core is printed and flagged at 85% or more.
 *
 * Environment: PANELS (2000), CAP (50), SIZE_MB (4).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startFleet } from '../apps/simulator/src/fleet.js';
import { describeGenerator, generatorShare, ownCpuSeconds, threadsCpuSeconds } from './lib/cpu.js';
import { curlBinary, curlDownloads } from './lib/curl.js';
import { nginxBinary, startNginx } from './lib/nginx.js';
import {
  cpuSeconds,
  fmt,
  loadAverage,
  machineDescription,
  onCleanup,
  printTable,
  rssBytes,
  runBenchmark,
  sleep,
  startServer,
  tempDir,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const PANELS = Number(process.env.PANELS ?? 2000);
const CAP = Number(process.env.CAP ?? 50);
const SIZE = Number(process.env.SIZE_MB ?? 4) * 2 ** 20;

/**
 * nginx serving the same file PANELS times, CAP at a time, to curl (one process per slot): the
 * bytes of the rollout moved by a server and a client that are not the bottleneck.
 */
async function nginxBaseline(file: string) {
  const nginx = await startNginx(path.dirname(file));
  const cpu0 = threadsCpuSeconds(nginx.workerPid);
  const round = await curlDownloads({
    url: `http://127.0.0.1:${nginx.port}/${path.basename(file)}`,
    downloads: PANELS,
    processes: CAP,
    size: SIZE,
  });
  const cpu = threadsCpuSeconds(nginx.workerPid) - cpu0;
  await nginx.stop();
  return { ms: round.wallSeconds * 1000, cpu, clients: generatorShare(round.clientCpu, round.wallSeconds) };
}

runBenchmark('bench:ota-rollout', 1_200_000, async () => {
  const loads = [loadAverage()];
  console.log(
    `staged rollout: ${PANELS} panels, ${SIZE / 2 ** 20} MiB image, download cap ${CAP}; load ${loads[0]}`,
  );
  // The peer and its client: a machine without them stops here, before the long half.
  nginxBinary();
  curlBinary();
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
  let fleetStopped = false;
  const stopFleet = async () => {
    if (fleetStopped) return;
    fleetStopped = true;
    await stopFleet();
  };
  onCleanup(stopFleet);
  const ids = await operator.deviceIds();
  if (ids.length !== PANELS) throw new Error(`${ids.length} panels listed`);
  const label = await operator.label('rollout', ids);

  const image = crypto.randomBytes(SIZE);
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
  const serverCpu0 = cpuSeconds(server.child.pid!);
  const fleetCpu0 = ownCpuSeconds();
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
  const serverCpu = cpuSeconds(server.child.pid!) - serverCpu0;
  // The panels are this process: its share of a core is the load generator's.
  const panelsShare = generatorShare([ownCpuSeconds() - fleetCpu0], productMs / 1000);
  const installed = fleet.panels.filter((p) => p.state.otaVersion === '2.0.0').length;
  loads.push(loadAverage());
  await stopFleet();
  const stored = fs.readdirSync(path.join(server.dataDir, 'files', 'ota'))[0]!;
  const copy = path.join(tempDir('pf-rollout-'), 'fw.bin');
  fs.copyFileSync(path.join(server.dataDir, 'files', 'ota', stored), copy);
  await server.stop();
  const baseline = await nginxBaseline(copy);
  const gib = (PANELS * SIZE) / 2 ** 30;
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
        'PanelFleet server CPU, in all and per GiB moved',
        `${fmt(serverCpu, 1)} s; ${fmt(serverCpu / gib, 2)} s per GiB`,
      ],
      ['  load generator (the simulated panels, this process)', describeGenerator(panelsShare)],
      ['nginx: the same bytes to curl, CAP at a time', `${fmt(baseline.ms / 1000, 1)} s`],
      [
        "  nginx worker's CPU, in all and per GiB",
        `${fmt(baseline.cpu, 2)} s; ${fmt(baseline.cpu / gib, 2)} s per GiB`,
      ],
      ['  load generator (curl processes)', describeGenerator(baseline.clients)],
      ['ratio PanelFleet / nginx, wall time', `${fmt(productMs / baseline.ms, 2)}x (goal <= 1.5x)`],
      [
        'ratio PanelFleet / nginx worker, server CPU per GiB',
        `${fmt(serverCpu / baseline.cpu, 1)}x (goal for downloads <= 2x)`,
      ],
      ['load average: start / after rollout / after nginx', loads.join(' / ')],
    ],
  );
});
