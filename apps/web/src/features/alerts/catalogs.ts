import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/**
 * The alert screens' strings load with those screens (not in the initial bundle), with the
 * contract's alert and webhook messages (form checks, what each alert saw).
 */
const alerts = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/alerts.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/alerts.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/alerts.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/alerts.en-US.json'),
    },
  ],
});

/** A screen module that needs the alert strings: loads both before the screen renders. */
export const withAlertCatalogs = alerts.withCatalogs;
