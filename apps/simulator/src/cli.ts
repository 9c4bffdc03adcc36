import { parseArgs } from 'node:util';
import { startFleet } from './fleet.js';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '10' },
    server: { type: 'string', default: 'http://127.0.0.1:8080' },
    mqtt: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
    secret: { type: 'string' },
    prefix: { type: 'string', default: 'SIM' },
    telemetry: { type: 'string', default: '10000' },
  },
});
if (!values.secret) {
  console.error('usage: npm run simulate -- --devices N --server http://host:8080 --mqtt mqtt://host:1883 --secret ENROLLMENT_SECRET');
  console.error('The enrollment secret is shown to the company account in the console (GET /platform/device/enrollmentSecret).');
  process.exit(2);
}
const fleet = await startFleet({
  url: values.server,
  mqttUrl: values.mqtt,
  enrollmentSecret: values.secret,
  count: Number(values.devices),
  prefix: values.prefix,
  telemetryMs: Number(values.telemetry),
});
console.log(`${fleet.panels.length} simulated panels online (${values.prefix}-00001 ...); Ctrl+C stops them`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void fleet.stop().then(() => process.exit(0)));
}
