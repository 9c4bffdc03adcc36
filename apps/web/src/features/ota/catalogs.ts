import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/**
 * The OTA screens' strings load with the OTA screens (not in the initial bundle), with the
 * contract's OTA messages (form checks in the OTA dialogs, reasons of failed panels).
 */
const ota = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/ota.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/ota.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/ota.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/ota.en-US.json'),
    },
  ],
});

export const loadOtaCatalogs = ota.loadCatalogs;
/** A screen module that needs the OTA strings: loads both before the screen renders. */
export const withOtaCatalogs = ota.withCatalogs;
