import { useCallback, useEffect, useRef, useState } from 'react';
import { alreadyReported } from '../../../api/client';
import { DETAIL_POLL_MS, startPoller, type Poller } from './poller';

/** While the live console is up, the open detail still refreshes what panels report on their own this often. */
export const LIVE_DETAIL_REFRESH_MS = 30_000;

/**
 * Reads `fetch` when `open` becomes true (or `key` changes) and every 5 s while open (every 30 s
 * while `live` is true: events then reload it at once); closing cancels the pending read and
 * stops the timer. `fetch` should be a stable function.
 */
export function usePolled<T>(
  key: number | undefined,
  open: boolean,
  fetch: (key: number, signal: AbortSignal, quietFail: boolean) => Promise<T>,
  live = false,
) {
  const [value, setValue] = useState<{ key: number; data: T }>();
  const poller = useRef<Poller>(undefined);

  useEffect(() => {
    if (!open || key === undefined) return;
    const running = startPoller(
      (signal, quietFail) => fetch(key, signal, quietFail),
      (data) => setValue({ key, data }),
      alreadyReported,
      live ? LIVE_DETAIL_REFRESH_MS : DETAIL_POLL_MS,
    );
    poller.current = running;
    return () => {
      running.stop();
      poller.current = undefined;
    };
  }, [key, open, fetch, live]);

  const reload = useCallback(() => poller.current?.load(), []);
  // A value read for another device is never shown.
  return { data: value && value.key === key && open ? value.data : undefined, reload };
}
