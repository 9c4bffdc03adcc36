import { buildApp } from '../app.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { tuneHeapGrowth } from '../heap.js';
import { UserRepository } from '../modules/users/repository.js';
import { loadPepper } from '../security/pepper.js';
import { exitOnStopSignals } from '../shutdown.js';
import { seedAccounts } from './seed-accounts.js';

/**
 * A server with the sample accounts seeded once (demo and crash tests). Prints one JSON line
 * {"ready":true,...} on stdout when it listens. Tests shorten timings: COMMAND_PUBLISH_BATCH (the
 * fan-out batches), COMMAND_RETRY_MS (an unacknowledged command is published again),
 * ROLLOUT_LEASE_MS (how long a rollout task stays with an instance that stopped renewing it) and
 * ALERT_MAIL_WINDOW_MS (the grouped alert mail's batch window; benchmarks).
 */
const config = loadConfig();
tuneHeapGrowth(config.heapGrowingPercent);
const positive = (name: string) => {
  const value = Number(process.env[name] ?? '0');
  return value > 0 ? value : undefined;
};
const batch = positive('COMMAND_PUBLISH_BATCH');
const retryMs = positive('COMMAND_RETRY_MS');
const leaseMs = positive('ROLLOUT_LEASE_MS');
const mailWindowMs = positive('ALERT_MAIL_WINDOW_MS');
const app = await buildApp(config, {
  logger: process.env.LOG_LEVEL !== 'silent',
  commandTimings: {
    ...(batch ? { publishBatch: batch } : {}),
    ...(retryMs ? { retryMs } : {}),
  },
  ...(leaseMs ? { rollout: { leaseMs } } : {}),
  ...(mailWindowMs ? { alerts: { mailWindowMs } } : {}),
});
const seeded = await new UserRepository(app.db.kysely).findByName('operator1');
if (!seeded) await seedAccounts(app.db, loadPepper(config.passwordPepper, config.dataDir), systemClock);
await app.http.listen({ port: config.port, host: config.host });
const address = app.http.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
process.stdout.write(
  `${JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}`, mqttPort: app.devices.mqttPort })}\n`,
);

// As main.ts: the same shutdown and deadline (crash and shutdown tests stop this process).
exitOnStopSignals(app.close, app.http.log);
