import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';
import { SESSION_QUERY_KEY } from '../app/queryClient';
import { changePage, FIRST_PAGE, PAGE_SIZE_OPTIONS, pageWithin, type PageState } from './paging';

export interface Page<Item> {
  listObject: Item[];
  totalRecords: number;
}

/** Loads one page of a list call; `fetchPage` receives the 1-based page, the size and the search text. */
export function usePagedList<Item>(name: string, fetchPage: (start: number, size: number, search: string | undefined) => Promise<Page<Item>>) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<PageState>(FIRST_PAGE);
  const [search, setSearch] = useState<string | undefined>(undefined);
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'list', name, paging.page, paging.size, search],
    queryFn: () => fetchPage(paging.page, paging.size, search),
    placeholderData: keepPreviousData,
  });
  const total = query.data?.totalRecords ?? 0;

  useEffect(() => {
    if (!query.data) return;
    const within = pageWithin(paging, query.data.totalRecords);
    if (within !== paging) setPaging(within);
  }, [paging, query.data]);

  const pagination: TablePaginationConfig = {
    current: paging.page,
    pageSize: paging.size,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showTotal: (count) => t('lists.total', { count }),
    onChange: (page, size) => setPaging((state) => changePage(state, page, size)),
  };

  return {
    rows: query.data?.listObject ?? [],
    loading: query.isFetching,
    pagination,
    /** Search from the first page; empty text lists everything. */
    search: (text: string) => {
      setSearch(text.trim() || undefined);
      setPaging((state) => ({ ...state, page: 1 }));
    },
    /** The refresh button: clears the search and reloads. */
    refresh: () => {
      setSearch(undefined);
      setPaging((state) => ({ ...state, page: 1 }));
      void query.refetch();
    },
    /** After a change: the same page again. */
    reload: () => void query.refetch(),
  };
}
