import { CONTRACT_NS } from '../../../i18n';
import { lazyCatalogs } from '../../../i18n/lazyCatalogs';

/**
 * The device import's strings (the dialog, its preview, the contract's import messages and the
 * CSV's column names) load with the device screens, not with the sign-in form.
 */
const catalogs = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/device-import.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../../packages/contract/src/i18n/device-import.zh-CN.json'),
    },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../../packages/contract/src/i18n/device-csv.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/device-import.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../../packages/contract/src/i18n/device-import.en-US.json'),
    },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../../packages/contract/src/i18n/device-csv.en-US.json'),
    },
  ],
});

/** A screen module that needs these strings: loads them before the screen renders. */
export const withDeviceImportCatalogs = catalogs.withCatalogs;
