/**
 * `npm run bench:screenshots`: the screenshot round trip and the wall view (issue 27 budgets).
 * One server process (its embedded broker, SQLite, the directory file store) and PANELS simulated
 * panels in this process, every one carrying one label.
 *
 * - Round trip: SHOTS screenshots one after another (a different panel each time), from the
 *   console's `take` call to the status call that first reads it stored (polled every 20 ms, as
 *   the console polls every 700 ms). The panels' own rendering (SVG -> JPEG with sharp, 1280x720)
 *   is measured apart on the same machine, and the server's added time is the round trip minus it.
 * - Wall: every panel of the label asked at once, ten at a time like the console's "refresh all",
 *   until the last is stored (each status polled every 200 ms; the console polls every 700 ms); the
 *   server's resident memory is sampled every 50 ms during it.
 */
import { device, screenshots } from '@panelfleet/contract';
import { startFleet } from '../apps/simulator/src/fleet.js';
import { captureScreen } from '../apps/simulator/src/screen.js';
import { fmt, printTable, rssBytes, runBenchmark, sleep, startServer } from './lib/harness.js';
import { Operator } from './lib/operator.js';

const PANELS = Number(process.env.PANELS ?? 100);
const SHOTS = Number(process.env.SHOTS ?? 100);

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const mib = (bytes: number) => fmt(bytes / 1024 / 1024, 1);

async function takeAndWait(operator: Operator, deviceId: number, pollMs = 20) {
  const asked = screenshots.takeScreenshot.reply.parse(
    await operator.request('POST', screenshots.takeScreenshot.path, { deviceId: String(deviceId) }),
  ).dataObject;
  let record = asked;
  while (record.status === 'pending') {
    await sleep(pollMs);
    record = screenshots.screenshotStatus.reply.parse(
      await operator.request(
        'GET',
        `${screenshots.screenshotStatus.path}?screenshotId=${asked.screenshotId}`,
      ),
    ).dataObject;
  }
  if (record.status !== 'stored') throw new Error(`screenshot of ${deviceId} ${record.failure ?? 'failed'}`);
  return record;
}

runBenchmark('bench:screenshots', 600_000, async () => {
  const server = await startServer();
  const operator = await Operator.signIn(server.url);
  const fleet = await startFleet({
    url: server.url,
    mqttUrl: server.mqttUrl,
    enrollmentSecret: await operator.enrollmentSecret(),
    count: PANELS,
    prefix: 'SHOT',
    telemetryMs: 60_000,
    abnormalLogChance: 0,
    log: () => undefined,
  });
  const ids = await operator.deviceIds();
  const label = device.insertGroup.reply.parse(
    await operator.request('POST', device.insertGroup.path, { groupName: 'Wall' }),
  ).dataObject;
  await operator.request('POST', device.saveGroupsAndDevices.path, {
    deviceIds: ids.join(','),
    groupIds: String(label.groupId),
  });

  const rounds: number[] = [];
  for (let i = 0; i < SHOTS; i++) {
    const started = performance.now();
    await takeAndWait(operator, ids[i % ids.length]!);
    rounds.push(performance.now() - started);
  }
  const renders: number[] = [];
  const ask = {
    url: server.url,
    maxBytes: device.SCREENSHOT_MAX_BYTES,
    maxWidth: 1280,
    maxHeight: 720,
    expiresAt: 0,
  };
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    await captureScreen(fleet.panels[i % fleet.panels.length]!, ask);
    renders.push(performance.now() - started);
  }

  // The wall: past the company's rate-limit window (the round trips used it), then every panel, ten at a time.
  await sleep(screenshots.SCREENSHOT_ORG_WINDOW_MS);
  const wall = screenshots.wallOfLabel.reply.parse(
    await operator.request('GET', `${screenshots.wallOfLabel.path}?labelId=${label.groupId}`),
  ).listObject;
  const before = rssBytes(server.child.pid!);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.child.pid!))), 50);
  const wallStarted = performance.now();
  const queue = wall.map((t) => t.deviceId);
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await takeAndWait(operator, id, 200);
    }),
  );
  const wallMs = performance.now() - wallStarted;
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(server.child.pid!));
  await fleet.stop();

  printTable(`screenshots: ${PANELS} simulated panels, ${SHOTS} round trips, wall of ${wall.length}`, [
    ['round trip p50 / p99 (ms)', `${fmt(percentile(rounds, 50))} / ${fmt(percentile(rounds, 99))}`],
    ['panel rendering p50 / p99 (ms)', `${fmt(percentile(renders, 50))} / ${fmt(percentile(renders, 99))}`],
    [
      "server's added time p50 / p99 (ms)",
      `${fmt(percentile(rounds, 50) - percentile(renders, 50))} / ${fmt(percentile(rounds, 99) - percentile(renders, 99))}`,
    ],
    [`wall of ${wall.length} refreshed (s)`, fmt(wallMs / 1000, 2)],
    ['server RSS before / peak / growth (MiB)', `${mib(before)} / ${mib(peak)} / ${mib(peak - before)}`],
  ]);
});
