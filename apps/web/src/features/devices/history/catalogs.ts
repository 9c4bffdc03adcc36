import { lazyCatalogs } from '../../../i18n/lazyCatalogs';

/** A panel's history tab loads its strings with it (the tab's own title stays with the start-up strings). */
const catalogs = lazyCatalogs({
  'zh-CN': [{ namespace: 'translation', load: () => import('./locales/panel-history.zh-CN.json') }],
  'en-US': [{ namespace: 'translation', load: () => import('./locales/panel-history.en-US.json') }],
});

/** A screen module that needs these strings: loads them before the screen renders. */
export const withPanelHistoryCatalogs = catalogs.withCatalogs;
