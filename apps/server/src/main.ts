import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { tuneHeapGrowth } from './heap.js';
import { DeploymentMismatch } from './modules/deployment/index.js';
import { exitOnStopSignals } from './shutdown.js';

const config = loadConfig();
tuneHeapGrowth(config.heapGrowingPercent);
const app = await buildApp(config).catch((err: unknown) => {
  // A deployment whose instances do not share their secrets: say what to do, without a stack.
  if (err instanceof DeploymentMismatch) {
    console.error(`PanelFleet did not start: ${err.message}`);
    process.exit(1);
  }
  throw err;
});
await app.http.listen({ port: config.port, host: config.host });
app.http.log.info(`PanelFleet console at ${config.baseUrl} (database: ${config.database.kind})`);

exitOnStopSignals(app.close, app.http.log);
