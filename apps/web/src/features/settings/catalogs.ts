import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/**
 * The contract's setting-template messages load with the settings screen. The console's setting
 * strings stay with the start-up strings: the device screens push and show saved settings too.
 */
const catalogs = lazyCatalogs({
  'zh-CN': [
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/settings.zh-CN.json'),
    },
  ],
  'en-US': [
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/settings.en-US.json'),
    },
  ],
});

/** A screen module that needs these strings: loads them before the screen renders. */
export const withSettingCatalogs = catalogs.withCatalogs;
