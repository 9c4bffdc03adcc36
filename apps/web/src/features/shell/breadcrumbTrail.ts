import { subViewsOf, type ViewName } from '@panelfleet/contract';

/** The menu entry that is the view or hosts it as a tab (the first that does), if any. */
export function menuEntryOf(view: ViewName, entries: readonly ViewName[]): ViewName | undefined {
  return entries.includes(view) ? view : entries.find((entry) => subViewsOf(entry).includes(view));
}

/** Pages reached from the header's user menu rather than the side menu, with the page that leads to them. */
const HEADER_PARENTS: Partial<Record<ViewName, ViewName>> = { modifyPassword: 'personCenter' };

/** The dashboards, which the console names "Home" like the breadcrumbs' first level. */
const HOME_VIEWS: readonly ViewName[] = ['index1', 'index2'];

/**
 * The levels the breadcrumbs show after "Home": the menu entry (or header page) a view belongs
 * to, then the view itself when it is a tab or page of that entry. A dashboard is Home itself.
 */
export function breadcrumbTrail(view: ViewName | undefined, entries: readonly ViewName[]): ViewName[] {
  if (!view || HOME_VIEWS.includes(view)) return [];
  const parent = HEADER_PARENTS[view] ?? menuEntryOf(view, entries);
  return parent && parent !== view ? [parent, view] : [view];
}
