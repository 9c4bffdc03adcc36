import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const app = await buildApp(config);
await app.http.listen({ port: config.port, host: config.host });
app.http.log.info(`PanelFleet console at ${config.baseUrl} (database: ${config.database.kind})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.http.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.http.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
