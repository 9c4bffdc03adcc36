import { buildApp } from '../app.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { UserRepository } from '../modules/users/repository.js';
import { loadPepper } from '../security/pepper.js';
import { seedAccounts } from './seed-accounts.js';

/**
 * A server with the sample accounts seeded once (demo and crash tests). Prints one JSON line
 * {"ready":true,...} on stdout when it listens. COMMAND_PUBLISH_BATCH shrinks the fan-out batches.
 */
const config = loadConfig();
const batch = Number(process.env.COMMAND_PUBLISH_BATCH ?? '0');
const app = await buildApp(config, {
  logger: process.env.LOG_LEVEL !== 'silent',
  ...(batch > 0 ? { commandTimings: { publishBatch: batch } } : {}),
});
const seeded = await new UserRepository(app.db.kysely).findByName('operator1');
if (!seeded) await seedAccounts(app.db, loadPepper(config.passwordPepper, config.dataDir), systemClock);
await app.http.listen({ port: config.port, host: config.host });
const address = app.http.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
process.stdout.write(
  `${JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}`, mqttPort: app.devices.mqttPort })}\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
