import { closeProcessBy } from './gateway/bounded.js';

/**
 * The longest a shutdown may take before the process exits anyway (with 1). The instance stops
 * taking work at once and hands what it holds to the others (app.ts), so a close under load takes
 * well under a second; the bounded steps within it (5 s each) only run long when something hangs.
 */
export const SHUTDOWN_DEADLINE_MS = 5000;

/** What shutting down needs: the app's close, a logger and the process exit (replaced in tests). */
export interface ShutdownDeps {
  close(): Promise<void>;
  log: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  exit(code: number): void;
  /** Longest time the whole close may take before the process exits anyway. */
  deadlineMs: number;
}

/**
 * Closes the app and exits: 0 when everything closed, 1 when a step failed or the close did not
 * finish before the deadline (every step of the close is bounded itself; this bounds the sum, so
 * a server told to stop never keeps answering HTTP with its jobs stopped).
 */
export function shutDown(signal: string, deps: ShutdownDeps): Promise<void> {
  deps.log.info({ signal }, 'shutting down');
  const started = Date.now();
  return new Promise((resolve) => {
    const deadline = setTimeout(() => {
      deps.log.error({ signal, deadlineMs: deps.deadlineMs }, 'shutdown did not finish in time; exiting');
      deps.exit(1);
      resolve();
    }, deps.deadlineMs);
    deadline.unref();
    deps.close().then(
      () => {
        clearTimeout(deadline);
        deps.log.info({ signal, ms: Date.now() - started }, 'shut down');
        deps.exit(0);
        resolve();
      },
      (err: unknown) => {
        clearTimeout(deadline);
        deps.log.error({ err }, 'shutdown failed');
        deps.exit(1);
        resolve();
      },
    );
  });
}

/** SIGINT and SIGTERM (the first one) close the app and exit: 0 when it closed before the deadline. */
export function exitOnStopSignals(close: () => Promise<void>, log: ShutdownDeps['log']) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      closeProcessBy(Date.now() + SHUTDOWN_DEADLINE_MS);
      void shutDown(signal, {
        close,
        log,
        exit: (code) => process.exit(code),
        deadlineMs: SHUTDOWN_DEADLINE_MS,
      });
    });
  }
}
