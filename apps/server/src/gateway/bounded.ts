import type { GatewayLog } from './transport.js';

/**
 * Runs one step of a shutdown and waits for it at most `ms`: a step that fails or hangs (a broker
 * that went away, a publish nothing will ever answer) is logged and the shutdown goes on.
 */
export async function bounded(
  what: string,
  ms: number,
  log: GatewayLog,
  step: () => Promise<unknown>,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    const outcome = await Promise.race([step().then(() => 'done' as const), late]);
    if (outcome === 'late')
      log.warn({ step: what, waitedMs: ms }, 'shutdown step did not finish in time; going on');
  } catch (err) {
    log.error({ err, step: what }, 'shutdown step failed; going on');
  } finally {
    clearTimeout(timer);
  }
}
