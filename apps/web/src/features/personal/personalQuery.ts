import { useQuery } from '@tanstack/react-query';
import { auth } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';

export const PERSONAL_QUERY_KEY = [...SESSION_QUERY_KEY, 'personal'] as const;

/** The signed-in user's own record (name, company, e-mail, phone, avatar, activation state). */
export const usePersonalInfo = () =>
  useQuery({
    queryKey: PERSONAL_QUERY_KEY,
    queryFn: () => call(auth.selectUser, {}),
    select: (reply) => reply.dataObject,
  });
