import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { alerts } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { pollWhile, useLiveEvents } from '../../live/useLive';

/** Every alert query (the bell's counts, the centre's pages, the rules' open counts). */
export const ALERTS_KEY = [...SESSION_QUERY_KEY, 'alerts'] as const;
const COUNTS_KEY = [...ALERTS_KEY, 'count'] as const;
/** Without the live stream the bell asks again this often. */
const POLL_MS = 30_000;
/** A storm of alert events (a floor of panels going dark) reads the alerts at most this often. */
const EVENT_READ_MS = 500;

/**
 * The alert counts of the caller's scope, read again on each live `alert` event (at most every
 * 500 ms in a burst) and, while the stream is down, every 30 s. Every alert query on screen
 * (the centre's page, the rules' open counts) reads again with it.
 */
export function useAlertCounts(enabled: boolean) {
  const client = useQueryClient();
  const timer = useRef<number>(undefined);
  const connected = useLiveEvents((event) => {
    if (event.type !== 'alert' || timer.current !== undefined) return;
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      void client.invalidateQueries({ queryKey: ALERTS_KEY });
      void client.invalidateQueries({ queryKey: [...SESSION_QUERY_KEY, 'list', 'alerts'] });
    }, EVENT_READ_MS);
  }, enabled);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useQuery({
    queryKey: COUNTS_KEY,
    queryFn: () => call(alerts.countAlerts, {}).then((reply) => reply.dataObject),
    enabled,
    refetchInterval: pollWhile(connected, POLL_MS),
    refetchIntervalInBackground: false,
  });
}
