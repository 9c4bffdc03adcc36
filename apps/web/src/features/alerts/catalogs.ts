import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/** The alert screens' strings load with those screens (not in the initial bundle). */
const alerts = lazyCatalogs({
  'zh-CN': [{ namespace: 'translation', load: () => import('./locales/alerts.zh-CN.json') }],
  'en-US': [{ namespace: 'translation', load: () => import('./locales/alerts.en-US.json') }],
});

/** A screen module that needs the alert strings: loads both before the screen renders. */
export const withAlertCatalogs = alerts.withCatalogs;
