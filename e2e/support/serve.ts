// Starts a real PanelFleet server for the e2e run: a fresh SQLite file, the sample accounts,
// the built console. Playwright starts one per deployment kind (normal and special flag).
// With FLEET=N, N simulated panels (E2E-00001...) of "Riverside School" run in this process
// and speak the device protocol to the server's embedded broker, so device screens act on them.
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '@panelfleet/server/app';
import { loadConfig } from '@panelfleet/server/config';
import { seedAccounts } from '@panelfleet/server/seed';
import { systemClock } from '../../apps/server/src/clock.js';
import { startFleet, type Fleet } from '../../apps/simulator/src/index.js';

const dataDir = path.resolve(process.env.DATA_DIR ?? 'e2e/.data/default');
fs.rmSync(dataDir, { recursive: true, force: true });
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  ADMIN_PASSWORD: 'admin123',
  LOG_LEVEL: 'warn',
});
const app = await buildApp(config);
const { customerId } = await seedAccounts(
  app.db,
  fs.readFileSync(path.join(dataDir, 'pepper.secret'), 'utf8').trim(),
  systemClock,
);
let fleet: Fleet | undefined;
// Fault injection for the e2e run only (this harness, never the product's routes): the next OTA
// image the panel downloads arrives with a flipped byte, so its SHA-256 check fails and the panel
// reports the failure, as the R8 API test does with the same simulator hook. A test picks the
// panel of a wave that must fail.
app.http.post<{ Params: { serial: string } }>(
  '/e2e/panels/:serial/corrupt-next-ota',
  async (request, reply) => {
    const panel = fleet?.panels.find((p) => p.serial === request.params.serial);
    if (!panel) return reply.code(404).send({ error: `no simulated panel ${request.params.serial}` });
    panel.corruptNextOta = true;
    return { serial: panel.serial, corruptNextOta: true };
  },
);
// The panel's wall clock is set wrong (a reset clock): the report it sends at once carries that time.
app.http.post<{ Params: { serial: string }; Querystring: { offsetMs?: string } }>(
  '/e2e/panels/:serial/clock',
  async (request, reply) => {
    const panel = fleet?.panels.find((p) => p.serial === request.params.serial);
    if (!panel) return reply.code(404).send({ error: `no simulated panel ${request.params.serial}` });
    const offsetMs = Number(request.query.offsetMs ?? 0);
    panel.setClockOffset(offsetMs);
    await panel.reportState({ cpuTemperature: panel.state.cpuTemperature });
    return { serial: panel.serial, offsetMs };
  },
);
await app.http.listen({ port: config.port, host: '127.0.0.1' });

const fleetSize = Number(process.env.FLEET ?? '0');
if (fleetSize > 0) {
  const { enrollmentSecret } = await app.devices.enrollmentSecrets.enrollmentSecret(customerId);
  fleet = await startFleet({
    url: `http://127.0.0.1:${config.port}`,
    mqttUrl: `mqtt://127.0.0.1:${app.devices.mqttPort}`,
    enrollmentSecret,
    count: fleetSize,
    prefix: 'E2E',
    telemetryMs: 2000,
    restartDelayMs: 1500,
    abnormalLogChance: 0,
    // Six weeks of usage and a few logs, so that every report mode has rows.
    historyDays: 42,
    log: (message) => {
      if (process.env.FLEET_LOG) console.log(message);
    },
  });
}
if (fleet) {
  // Two abnormal logs of the first panel: a short one over MQTT, and one too large for an MQTT
  // message (200,000 Chinese characters), uploaded over HTTP.
  const first = fleet.panels[0]!;
  await first.reportLog({
    fileName: 'anr-short.txt',
    appName: 'Whiteboard',
    occurredAt: Date.now(),
    text: 'ANR in com.panel.board\nReason: Input dispatching timed out',
  });
  await first.reportLog({
    fileName: 'anr-large.txt',
    appName: 'Browser',
    occurredAt: Date.now(),
    text: Array.from(
      { length: 10_000 },
      (_, i) => `${String(i + 1).padStart(5, '0')} 浏览器无响应：输入事件分发超时\n`,
    ).join(''),
  });
}
console.log(`e2e server ready on ${config.port}${fleet ? ` with ${fleet.panels.length} panels` : ''}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () => void (fleet?.stop() ?? Promise.resolve()).then(() => app.close()).then(() => process.exit(0)),
  );
}
