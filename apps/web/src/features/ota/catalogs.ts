import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/** The OTA screens' strings load with the OTA screens (not in the initial bundle). */
const ota = lazyCatalogs({
  'zh-CN': [{ namespace: 'translation', load: () => import('./locales/ota.zh-CN.json') }],
  'en-US': [{ namespace: 'translation', load: () => import('./locales/ota.en-US.json') }],
});

export const loadOtaCatalogs = ota.loadCatalogs;
/** A screen module that needs the OTA strings: loads both before the screen renders. */
export const withOtaCatalogs = ota.withCatalogs;
