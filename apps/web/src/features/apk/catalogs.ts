import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/** The APK repository's strings (the APK tab of OTA management) and the contract's APK messages load with it. */
const catalogs = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/apk.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/apk.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/apk.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/apk.en-US.json'),
    },
  ],
});

/** A screen module that needs these strings: loads them before the screen renders. */
export const withApkCatalogs = catalogs.withCatalogs;
