import { parseCliArgs } from './cli-args.js';
import { spreadPlace, startFleet } from './fleet.js';

const values = parseCliArgs(process.argv.slice(2));
if (!values.secret) {
  console.error(
    'usage: npm run simulate -- --devices N --server http://host:8080 --mqtt mqtt://host:1883 --secret ENROLLMENT_SECRET' +
      ' [--ota-fail-rate 0.3] [--ota-fail-serials SIM-00007,SIM-00012] [--ota-corrupt-rate 0.1] [--install-ms 5000] [--utc-offset 480]',
  );
  console.error(
    'The enrollment secret is shown to the company account in the console (GET /platform/device/enrollmentSecret).',
  );
  process.exit(2);
}
const fleet = await startFleet({
  url: values.server,
  mqttUrl: values.mqtt,
  enrollmentSecret: values.secret,
  count: Number(values.devices),
  prefix: values.prefix,
  telemetryMs: Number(values.telemetry),
  otaFailRate: Number(values['ota-fail-rate']),
  otaCorruptRate: Number(values['ota-corrupt-rate']),
  otaFailSerials: values['ota-fail-serials'].split(',').filter(Boolean),
  installMs: Number(values['install-ms']),
  utcOffset: Number(values['utc-offset']),
  historyDays: Number(values['history-days']),
  ...(values.places === 'spread' ? { placeOf: spreadPlace } : {}),
});
console.log(`${fleet.panels.length} simulated panels online (${values.prefix}-00001 ...); Ctrl+C stops them`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void fleet.stop().then(() => process.exit(0)));
}
