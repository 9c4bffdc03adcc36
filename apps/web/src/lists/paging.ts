import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@panelfleet/contract';

export interface PageState {
  /** 1-based page number, sent as `start`. */
  page: number;
  size: number;
}

export const FIRST_PAGE: PageState = { page: 1, size: DEFAULT_PAGE_SIZE };

export const PAGE_SIZE_OPTIONS = PAGE_SIZES.map(String);

/** After rows were deleted the current page may lie past the end; step back to the last one. */
export function pageWithin(state: PageState, total: number): PageState {
  const last = Math.max(1, Math.ceil(total / state.size));
  return state.page > last ? { ...state, page: last } : state;
}

/** A new page size starts again at the first page. */
export function changePage(state: PageState, page: number, size: number): PageState {
  return size !== state.size ? { page: 1, size } : { page, size };
}
