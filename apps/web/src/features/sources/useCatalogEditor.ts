import { useQuery } from '@tanstack/react-query';
import { auth, sources } from '@panelfleet/contract';
import { call } from '../../api/client';
import { USER_TYPE_QUERY_KEY } from '../../app/queryClient';

/**
 * Whether the signed-in user may change the hardware catalog (signal sources, machine types).
 * The server decides; this only keeps buttons that would be refused off the screen.
 */
export function useCatalogEditor(): boolean {
  const session = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  return session.data ? sources.mayEditCatalogs(session.data.userType) : false;
}
