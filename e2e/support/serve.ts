// Starts a real PanelFleet server for the e2e run: a fresh SQLite file, the sample accounts,
// the built console. Playwright starts one per deployment kind (normal and special flag).
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '@panelfleet/server/app';
import { loadConfig } from '@panelfleet/server/config';
import { seedAccounts } from '@panelfleet/server/seed';
import { systemClock } from '../../apps/server/src/clock.js';

const dataDir = path.resolve(process.env.DATA_DIR ?? 'e2e/.data/default');
fs.rmSync(dataDir, { recursive: true, force: true });
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, ADMIN_PASSWORD: 'admin123', LOG_LEVEL: 'warn' });
const app = await buildApp(config);
await seedAccounts(app.db, fs.readFileSync(path.join(dataDir, 'pepper.secret'), 'utf8').trim(), systemClock);
await app.http.listen({ port: config.port, host: '127.0.0.1' });
console.log(`e2e server ready on ${config.port}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
