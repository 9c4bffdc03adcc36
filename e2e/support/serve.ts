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
import { DeviceService } from '../../apps/server/src/modules/devices/service.js';
import { DeviceRepository } from '../../apps/server/src/modules/devices/repository.js';
import { EnrollmentRepository } from '../../apps/server/src/modules/devices/enrollment-repository.js';
import { startFleet, type Fleet } from '../../apps/simulator/src/index.js';

const dataDir = path.resolve(process.env.DATA_DIR ?? 'e2e/.data/default');
fs.rmSync(dataDir, { recursive: true, force: true });
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, ADMIN_PASSWORD: 'admin123', LOG_LEVEL: 'warn' });
const app = await buildApp(config);
const { customerId } = await seedAccounts(app.db, fs.readFileSync(path.join(dataDir, 'pepper.secret'), 'utf8').trim(), systemClock);
await app.http.listen({ port: config.port, host: '127.0.0.1' });

let fleet: Fleet | undefined;
const fleetSize = Number(process.env.FLEET ?? '0');
if (fleetSize > 0) {
  const enrollment = new DeviceService(new DeviceRepository(app.db.kysely), new EnrollmentRepository(app.db.kysely), systemClock, { mqttUrls: [], keepaliveSeconds: 30 }, () => undefined);
  const { enrollmentSecret } = await enrollment.enrollmentSecret(customerId);
  fleet = await startFleet({
    url: `http://127.0.0.1:${config.port}`,
    mqttUrl: `mqtt://127.0.0.1:${app.devices.mqttPort}`,
    enrollmentSecret,
    count: fleetSize,
    prefix: 'E2E',
    telemetryMs: 2000,
    restartDelayMs: 1500,
    abnormalLogChance: 0,
    log: (message) => { if (process.env.FLEET_LOG) console.log(message); },
  });
}
console.log(`e2e server ready on ${config.port}${fleet ? ` with ${fleet.panels.length} panels` : ''}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void (fleet?.stop() ?? Promise.resolve()).then(() => app.close()).then(() => process.exit(0)));
}
