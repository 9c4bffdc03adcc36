import { useQuery } from '@tanstack/react-query';
import { auth, sources, type UserType } from '@panelfleet/contract';
import { call } from '../../api/client';
import { USER_TYPE_QUERY_KEY } from '../../app/queryClient';

function useUserType(): UserType | undefined {
  const session = useQuery({ queryKey: USER_TYPE_QUERY_KEY, queryFn: () => call(auth.userType, {}) });
  return session.data?.userType;
}

/**
 * Whether the signed-in user may change the hardware catalog (machine types, the catalog's
 * signal sources). The server decides; this only keeps buttons that would be refused off the screen.
 */
export function useCatalogEditor(): boolean {
  const userType = useUserType();
  return userType ? sources.mayEditCatalogs(userType) : false;
}

/** Whether the signed-in user may add signal sources (its organisation's own; the platform's: the catalog). */
export function useSourceAdder(): boolean {
  const userType = useUserType();
  return userType ? sources.mayAddSources(userType) : false;
}
