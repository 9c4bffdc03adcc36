import { spawn } from 'node:child_process';
import { buildApp } from '../app.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { tuneHeapGrowth } from '../heap.js';
import { UserRepository } from '../modules/users/repository.js';
import { loadPepper } from '../security/pepper.js';
import { seedAccounts } from './seed-accounts.js';
import { seedDemoSettings } from './demo-settings.js';
import { DEMO_FAILING_PANEL, seedDemoOta } from './demo-ota.js';
import { seedTipsAndReminders } from './seed-tips.js';
import { seedDemoFleet } from './demo-fleet.js';
import { DEMO_ADMIN_PASSWORD, demoAccountLines } from './demo-accounts.js';
import { seedDemoDistributor, seedDemoPlatform } from './demo-catalog.js';
import { seedDemoPrograms } from './demo-programs.js';
import { seedDemoAlerts } from './demo-alerts.js';

/** `npm run demo`: the server (captcha on) with the demo customer and 30 simulated panels. */
// The dashboards' gauges and history are sampled every 30 s in the demo (5 minutes by default).
const PANELS = 30;
const config = loadConfig({
  DATA_DIR: './data/demo',
  MQTT_PORT: '0',
  HISTORY_SAMPLE_MS: '30000',
  // The platform admin's password on the demo's first start (printed in the banner).
  ADMIN_PASSWORD: DEMO_ADMIN_PASSWORD,
  ...process.env,
});
tuneHeapGrowth(config.heapGrowingPercent);
const app = await buildApp(config, { logger: false });
const existing = await new UserRepository(app.db.kysely).findByName('operator1');
const customerId =
  existing?.org_id ??
  (await seedAccounts(app.db, loadPepper(config.passwordPepper, config.dataDir), systemClock)).customerId;
const { enrollmentSecret } = await app.devices.enrollmentSecrets.enrollmentSecret(customerId);
await seedTipsAndReminders(app.db, systemClock.now());
await app.http.listen({ port: config.port, host: config.host });
const seededSettings = await seedDemoSettings(`http://127.0.0.1:${config.port}`, app.db);

const simulator = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    new URL('../../../simulator/src/cli.ts', import.meta.url).pathname,
    '--devices',
    String(PANELS),
    '--server',
    `http://127.0.0.1:${config.port}`,
    '--mqtt',
    `mqtt://127.0.0.1:${app.devices.mqttPort}`,
    '--secret',
    enrollmentSecret,
    '--prefix',
    'DEMO',
    // Six weeks of usage and logs the panels "kept while offline": every report has data.
    '--history-days',
    '45',
    // Panels in several cities, some placed on the map by their public IP only.
    '--places',
    'spread',
    // The demo's OTA rollout has one failing panel, so the "Rollout failures" alert rule fires.
    '--ota-fail-serials',
    DEMO_FAILING_PANEL,
  ],
  { stdio: 'inherit' },
);
const base = `http://127.0.0.1:${config.port}`;
const fleet = await seedDemoFleet(base, app.db, PANELS, (m) => console.log(m)).catch(
  (err: unknown) => `labels and command history NOT seeded: ${String(err)}`,
);
// Every other screen gets data too: the platform's catalog, the distributor's, programs.
const seeded = [
  await seedDemoPlatform(base, app.db, process.env.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD).catch(
    (err: unknown) => `platform catalog NOT seeded: ${String(err)}`,
  ),
  await seedDemoDistributor(base, app.db).catch((err: unknown) => `distributor NOT seeded: ${String(err)}`),
  await seedDemoPrograms(base, app.db).catch((err: unknown) => `programs NOT seeded: ${String(err)}`),
  await seedDemoAlerts(base, app.db, (m) => console.log(m)).catch(
    (err: unknown) => `alerts NOT seeded: ${String(err)}`,
  ),
];
const accounts = await demoAccountLines(app.db, loadPepper(config.passwordPepper, config.dataDir));
console.log(`
================================================================================
PanelFleet demo: open ${config.baseUrl} (captcha ${config.captcha ? 'on' : 'off'})
Sign in as (user name / password):
${accounts.map((line) => `  ${line}`).join('\n')}
${PANELS} simulated panels DEMO-00001..DEMO-${String(PANELS).padStart(5, '0')} of "Riverside School", enrolled with the
company secret ${enrollmentSecret}; six weeks of screen time, app usage and abnormal logs.
${fleet}
${seeded.join('\n')}
saved settings: ${seededSettings ? `${seededSettings} made now` : 'as left by the last run'} (Settings page; push them to DEMO panels)
Data: ${config.dataDir} (delete it for a fresh demo). Lost a password? DATA_DIR=${config.dataDir} npm run admin:reset-password
Ctrl+C stops everything.
================================================================================`);

// The OTA screens get real data: a file and a finished rollout, through the API and the protocol.
seedDemoOta(app, `http://127.0.0.1:${config.port}`, (m) => console.log(m)).catch((err: unknown) =>
  console.error(`demo OTA not seeded: ${String(err)}`),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    simulator.kill('SIGTERM');
    void app.close().then(() => process.exit(0));
  });
}
