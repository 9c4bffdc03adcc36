import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/** The dashboards' and the fleet map's strings (and the contract's dashboard messages) load with them. */
const catalogs = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/dashboard.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/dashboard.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/dashboard.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/dashboard.en-US.json'),
    },
  ],
});

/** A screen module that needs these strings: loads them before the screen renders. */
export const withDashboardCatalogs = catalogs.withCatalogs;
