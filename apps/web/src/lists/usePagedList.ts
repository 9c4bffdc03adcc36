import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';
import { SESSION_QUERY_KEY } from '../app/queryClient';
import { changePage, FIRST_PAGE, PAGE_SIZE_OPTIONS, pageWithin, type PageState } from './paging';

export interface Page<Item> {
  listObject: Item[];
  totalRecords: number;
  /** More match than the list holds (a capped search): totalRecords is the cap. */
  totalCapped?: boolean;
}

/**
 * Loads one page of a list call with a filter of any shape (several search fields);
 * `fetchPage` receives the 1-based page, the size and the current filter.
 */
export interface PagedListOptions {
  /** The pager's "go to page" box, for lists long enough to need it. */
  quickJumper?: boolean;
}

export function useFilteredList<Item, Filter>(
  name: string,
  fetchPage: (start: number, size: number, filter: Filter | undefined) => Promise<Page<Item>>,
  options: PagedListOptions = {},
) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState<PageState>(FIRST_PAGE);
  const [filter, setFilter] = useState<Filter | undefined>(undefined);
  const query = useQuery({
    queryKey: [...SESSION_QUERY_KEY, 'list', name, paging.page, paging.size, filter],
    queryFn: () => fetchPage(paging.page, paging.size, filter),
    placeholderData: keepPreviousData,
  });
  const total = query.data?.totalRecords ?? 0;
  const capped = query.data?.totalCapped === true;

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
    showQuickJumper: options.quickJumper ?? false,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showTotal: (count) => t(capped ? 'lists.totalCapped' : 'lists.total', { count }),
    onChange: (page, size) => setPaging((state) => changePage(state, page, size)),
  };

  return {
    rows: query.data?.listObject ?? [],
    loading: query.isFetching,
    capped,
    pagination,
    /** The filter the rows were asked with (undefined: everything). */
    current: filter,
    /** Filter from the first page; undefined lists everything. */
    filter: (value: Filter | undefined) => {
      // The same search again reads again: what it lists may have changed meanwhile.
      if (paging.page === 1 && JSON.stringify(value) === JSON.stringify(filter)) void query.refetch();
      setFilter(value);
      setPaging((state) => ({ ...state, page: 1 }));
    },
    /** The refresh button: clears the filter and reloads. */
    refresh: () => {
      setFilter(undefined);
      setPaging((state) => ({ ...state, page: 1 }));
      void query.refetch();
    },
    /** After a change: the same page again. */
    reload: () => void query.refetch(),
  };
}

/** Loads one page of a list call searched by one text; `fetchPage` receives the 1-based page, the size and the search text. */
export function usePagedList<Item>(
  name: string,
  fetchPage: (start: number, size: number, search: string | undefined) => Promise<Page<Item>>,
  options: PagedListOptions = {},
) {
  const list = useFilteredList<Item, string>(name, fetchPage, options);
  return {
    ...list,
    /** Search from the first page; empty text lists everything. */
    search: (text: string) => list.filter(text.trim() || undefined),
  };
}
