import { useCallback, useEffect, useRef, useState } from 'react';
import { alreadyReported } from '../../../api/client';
import { startPoller, type Poller } from './poller';

/**
 * Reads `fetch` when `open` becomes true (or `key` changes) and every 5 s while open; closing
 * cancels the pending read and stops the timer. `fetch` should be a stable function.
 */
export function usePolled<T>(key: number | undefined, open: boolean, fetch: (key: number, signal: AbortSignal, quietFail: boolean) => Promise<T>) {
  const [value, setValue] = useState<{ key: number; data: T }>();
  const poller = useRef<Poller>(undefined);

  useEffect(() => {
    if (!open || key === undefined) return;
    const running = startPoller(
      (signal, quietFail) => fetch(key, signal, quietFail),
      (data) => setValue({ key, data }),
      alreadyReported,
    );
    poller.current = running;
    return () => {
      running.stop();
      poller.current = undefined;
    };
  }, [key, open, fetch]);

  const reload = useCallback(() => poller.current?.load(), []);
  // A value read for another device is never shown.
  return { data: value && value.key === key && open ? value.data : undefined, reload };
}
