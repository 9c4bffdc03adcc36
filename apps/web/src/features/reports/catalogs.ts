import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/**
 * The strings of the reports, the operation log, the abnormal log, the error tips and the warning
 * messages (console and contract: report titles and columns, the tips' form checks) load with those
 * screens, not with the shell.
 */
const catalogs = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/reports.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/reports.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/reports.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/reports.en-US.json'),
    },
  ],
});

/** A screen module that needs these strings: loads them before the screen renders. */
export const withReportCatalogs = catalogs.withCatalogs;
