import { useQuery } from '@tanstack/react-query';
import { apiTokens } from '@panelfleet/contract';
import { call } from '../../../api/client';
import { SESSION_QUERY_KEY } from '../../../app/queryClient';

export const API_TOKENS_KEY = [...SESSION_QUERY_KEY, 'apiTokens'] as const;

/** The signed-in user's API tokens (never the tokens themselves). */
export function useApiTokens() {
  const query = useQuery({ queryKey: API_TOKENS_KEY, queryFn: () => call(apiTokens.listTokens, {}) });
  return { tokens: query.data?.listObject ?? [], loading: query.isFetching, reload: query.refetch };
}

/** Expiry choices of the create dialog, in days; 0: never. */
export const EXPIRY_DAYS = [7, 30, 90, 365, 0] as const;
const DAY_MS = 86_400_000;
export const expiryOf = (days: number, now = Date.now()) => (days ? now + days * DAY_MS : undefined);
