import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/** The certificate screen's strings and the contract's certificate messages load with it. */
const catalogs = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/certificate.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/certificate.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/certificate.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/certificate.en-US.json'),
    },
  ],
});

/** A screen module that needs these strings: loads them before the screen renders. */
export const withCertificateCatalogs = catalogs.withCatalogs;
