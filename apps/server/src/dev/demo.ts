import { spawn } from 'node:child_process';
import { buildApp } from '../app.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { DeviceService } from '../modules/devices/service.js';
import { DeviceRepository } from '../modules/devices/repository.js';
import { EnrollmentRepository } from '../modules/devices/enrollment-repository.js';
import { loadPepper } from '../security/pepper.js';
import { seedAccounts } from './seed-accounts.js';

/** `npm run demo`: the server (captcha on) with the demo customer and 30 simulated panels. */
const config = loadConfig({ DATA_DIR: './data/demo', MQTT_PORT: '0', ...process.env });
const app = await buildApp(config, { logger: false });
const existing = await app.db.kysely.selectFrom('users').select('org_id').where('user_name', '=', 'operator1').executeTakeFirst();
const customerId = existing?.org_id ?? (await seedAccounts(app.db, loadPepper(config.passwordPepper, config.dataDir), systemClock)).customerId;
const enrollment = new DeviceService(new DeviceRepository(app.db.kysely), new EnrollmentRepository(app.db.kysely), systemClock, { mqttUrls: [], keepaliveSeconds: 30 }, () => undefined);
const { enrollmentSecret } = await enrollment.enrollmentSecret(customerId);
await app.http.listen({ port: config.port, host: config.host });

const simulator = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('../../../simulator/src/cli.ts', import.meta.url).pathname,
    '--devices', '30', '--server', `http://127.0.0.1:${config.port}`, '--mqtt', `mqtt://127.0.0.1:${app.devices.mqttPort}`, '--secret', enrollmentSecret, '--prefix', 'DEMO'],
  { stdio: 'inherit' },
);
console.log(`
PanelFleet demo at ${config.baseUrl} (captcha ${config.captcha ? 'on' : 'off'})
  sign in as operator1 / operator123 (customer administrator of "Riverside School")
  or customer1 / customer123 (the company account), admin / ${config.adminPassword ? '<ADMIN_PASSWORD>' : 'see the log of the first start'} (platform)
  30 simulated panels DEMO-00001..DEMO-00030 enroll with the company secret ${enrollmentSecret}
  device data: GET /platform/device/list?start=1&size=50 (signed in)
Ctrl+C stops everything.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    simulator.kill('SIGTERM');
    void app.close().then(() => process.exit(0));
  });
}
