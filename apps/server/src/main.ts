import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { tuneHeapGrowth } from './heap.js';
import { DeploymentMismatch } from './modules/deployment/secrets.js';
import { shutDown } from './shutdown.js';

/** Every step of the close is bounded (the gateway's at 5 s each); this bounds them all. */
const SHUTDOWN_DEADLINE_MS = 30_000;

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

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () =>
      void shutDown(signal, {
        close: app.close,
        log: app.http.log,
        exit: (code) => process.exit(code),
        deadlineMs: SHUTDOWN_DEADLINE_MS,
      }),
  );
}
