/** Spec 2 section 9: the open detail modal refreshes every 5 seconds. */
export const DETAIL_POLL_MS = 5000;

export interface Poller {
  /** Reads now (cancelling a read still on its way). */
  load(): void;
  /** Stops the timer and cancels the read on its way; nothing is delivered after this. */
  stop(): void;
}

/**
 * Reads at once and then every `intervalMs`. A newer read cancels the pending one (its signal
 * aborts), so an answer never overtakes a later one. Only the first read may tell the user about
 * a refusal (`quietFail` false); polls would repeat it every few seconds.
 */
export function startPoller<T>(
  fetch: (signal: AbortSignal, quietFail: boolean) => Promise<T>,
  deliver: (data: T) => void,
  onError: (error: unknown) => void,
  intervalMs = DETAIL_POLL_MS,
): Poller {
  let controller: AbortController | undefined;
  let first = true;
  let stopped = false;
  const load = () => {
    if (stopped) return;
    controller?.abort();
    const own = new AbortController();
    controller = own;
    const quietFail = !first;
    first = false;
    fetch(own.signal, quietFail).then(
      (data) => !own.signal.aborted && deliver(data),
      (error: unknown) => !own.signal.aborted && onError(error),
    );
  };
  load();
  const timer = setInterval(load, intervalMs);
  return {
    load,
    stop() {
      stopped = true;
      clearInterval(timer);
      controller?.abort();
    },
  };
}
