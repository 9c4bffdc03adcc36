import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { dashboard } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';
import { pollWhile, useLiveEvents } from '../../live/useLive';

const DASHBOARD_KEY = [...SESSION_QUERY_KEY, 'dashboard'] as const;
/** Events in a burst (a floor of panels switched off) cause one read at most this often. */
const EVENT_READ_MS = 300;

/**
 * The dashboard figures of the caller's scope. Presence and command events of the live console
 * read them again at once (at most every 300 ms in a burst); without the stream they are read
 * every 5 s (spec 2 section 9's poll).
 */
export function useDashboard() {
  const client = useQueryClient();
  const timer = useRef<number>(undefined);
  const connected = useLiveEvents((event) => {
    if (event.type === 'taskProgress') return;
    if (timer.current !== undefined) return;
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      void client.invalidateQueries({ queryKey: DASHBOARD_KEY });
    }, EVENT_READ_MS);
  });
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useQuery({
    queryKey: DASHBOARD_KEY,
    queryFn: () => call(dashboard.previewCustomerDevice, {}).then((r) => r.dataObject),
    refetchInterval: pollWhile(connected, dashboard.DASHBOARD.pollMs),
    refetchIntervalInBackground: false,
  });
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The last `count` hours or days of the scope's history (read again every 5 minutes). */
export function useHistory(period: dashboard.HistoryPeriod, count: number) {
  const [now] = useState(() => Date.now());
  const step = period === 'hour' ? HOUR : DAY;
  const end = now - (now % step) + step;
  return useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'dashboardHistory', period, count],
    queryFn: () =>
      call(dashboard.history, { period, startTime: end - count * step, endTime: end }).then((r) => ({
        points: r.listObject,
        start: end - count * step,
        step,
        count,
      })),
    refetchInterval: 5 * 60_000,
  });
}
