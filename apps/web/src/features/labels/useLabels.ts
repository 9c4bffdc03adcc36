import { useQuery } from '@tanstack/react-query';
import { device } from '@panelfleet/contract';
import { call } from '../../api/client';
import { SESSION_QUERY_KEY } from '../../app/queryClient';

export const LABELS_KEY = [...SESSION_QUERY_KEY, 'labels'] as const;

/** The company's labels (groups), by name. */
export function useLabels() {
  const query = useQuery({ queryKey: LABELS_KEY, queryFn: () => call(device.listGroups, {}) });
  return {
    labels: query.data?.listObject ?? [],
    loading: query.isFetching,
    loaded: query.isSuccess,
    reload: query.refetch,
  };
}
