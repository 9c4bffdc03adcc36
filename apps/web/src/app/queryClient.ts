import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    // The api client already told the user about a failure; a retry would tell them twice.
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

/** Everything that belongs to the signed-in user; dropped at sign-in, sign-out and expiry. */
export const SESSION_QUERY_KEY = ['session'] as const;
export const USER_TYPE_QUERY_KEY = [...SESSION_QUERY_KEY, 'userType'] as const;
