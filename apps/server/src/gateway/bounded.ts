import type { GatewayLog } from './transport.js';

/**
 * When the process must have closed: set once by the stop signal (shutdown.ts), never in a process
 * that only builds and closes apps (the tests). Every bounded step of the close stops waiting
 * `CLOSE_RESERVE_MS` before it, so the steps together fit the deadline however many run long
 * (a saturated pool, a frozen database), and the last ones (HTTP, database close) still run.
 */
let processClosesBy = Number.POSITIVE_INFINITY;
const CLOSE_RESERVE_MS = 600;
/** A step that took longer than this is logged with its time: what made a shutdown slow. */
const SLOW_STEP_MS = 250;

export function closeProcessBy(time: number) {
  processClosesBy = time;
}

/** `ms`, or less when the process's close deadline comes sooner. */
export function withinClose(ms: number): number {
  return Math.max(0, Math.min(ms, processClosesBy - CLOSE_RESERVE_MS - Date.now()));
}

/**
 * Runs one step of a shutdown and waits for it at most `ms` (less when the close deadline is
 * nearer): a step that fails or hangs (a broker that went away, a publish nothing will ever
 * answer) is logged and the shutdown goes on.
 */
export async function bounded(
  what: string,
  ms: number,
  log: GatewayLog,
  step: () => Promise<unknown>,
): Promise<void> {
  const wait = withinClose(ms);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), wait);
  });
  try {
    const outcome = await Promise.race([step().then(() => 'done' as const), late]);
    if (outcome === 'late')
      log.warn({ step: what, waitedMs: wait }, 'shutdown step did not finish in time; going on');
    else if (Date.now() - started > SLOW_STEP_MS)
      log.info({ step: what, ms: Date.now() - started }, 'shutdown step took long');
  } catch (err) {
    log.error({ err, step: what }, 'shutdown step failed; going on');
  } finally {
    clearTimeout(timer);
  }
}
