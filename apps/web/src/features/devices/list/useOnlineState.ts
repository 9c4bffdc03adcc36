import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { device } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';
import { pollWhile, useLiveEvents } from '../../../live/useLive';

/** Spec 2 section 9: the list refreshes the online state of its devices every 5 seconds. */
export const ONLINE_REFRESH_MS = 5000;

/**
 * Online state of the listed devices. The live console's presence events change a row at once;
 * while the stream is down the state is asked every 5 s (the server answers from gateway memory).
 * Until the first answer, and for keys it does not report, the row's own isOnline stands.
 */
export function useOnlineState(deviceKeys: string[]): (deviceKey: string, fallback: '1' | '0') => '1' | '0' {
  const keys = [...new Set(deviceKeys)].sort();
  const [pushed, setPushed] = useState<ReadonlyMap<string, '1' | '0'>>(new Map());
  const connected = useLiveEvents((event) => {
    if (event.type === 'presence')
      setPushed((seen) => new Map(seen).set(event.deviceKey, event.online ? '1' : '0'));
    // The server lost its broker: what was pushed is stale, ask again.
    if (event.type === 'presenceReset') {
      setPushed(new Map());
      void query.refetch();
    }
  });
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'online', keys],
    queryFn: async () => {
      const reply = await call(device.listIsOnlineByDeviceKey, { deviceKeyList: keys.join(',') });
      // A fresh answer is newer than every event before it.
      setPushed(new Map());
      return reply;
    },
    enabled: keys.length > 0,
    refetchInterval: pollWhile(connected, ONLINE_REFRESH_MS),
    refetchIntervalInBackground: false,
  });
  const known = new Map((query.data?.listObject ?? []).map((d) => [d.deviceKey, d.isOnline]));
  return (deviceKey, fallback) => pushed.get(deviceKey) ?? known.get(deviceKey) ?? fallback;
}
