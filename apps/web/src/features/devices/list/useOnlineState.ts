import { useQuery } from '@tanstack/react-query';
import { device } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';

/** Spec 2 section 9: the list refreshes the online state of its devices every 5 seconds. */
export const ONLINE_REFRESH_MS = 5000;

/**
 * Online state of the listed devices, asked every 5 s (the server answers from gateway memory).
 * Until the first answer, and for keys it does not report, the row's own isOnline stands.
 */
export function useOnlineState(deviceKeys: string[]): (deviceKey: string, fallback: '1' | '0') => '1' | '0' {
  const keys = [...new Set(deviceKeys)].sort();
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'online', keys],
    queryFn: () => call(device.listIsOnlineByDeviceKey, { deviceKeyList: keys.join(',') }),
    enabled: keys.length > 0,
    refetchInterval: ONLINE_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const known = new Map((query.data?.listObject ?? []).map((d) => [d.deviceKey, d.isOnline]));
  return (deviceKey, fallback) => known.get(deviceKey) ?? fallback;
}
