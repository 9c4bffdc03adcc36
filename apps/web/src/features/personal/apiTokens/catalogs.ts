import { CONTRACT_NS } from '../../../i18n';
import { lazyCatalogs } from '../../../i18n/lazyCatalogs';

/** The API tokens' strings and the contract's token messages load with the personal centre. */
const catalogs = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/api-tokens.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../../packages/contract/src/i18n/api-tokens.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/api-tokens.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../../packages/contract/src/i18n/api-tokens.en-US.json'),
    },
  ],
});

/** A screen module that needs these strings: loads them before the screen renders. */
export const withApiTokenCatalogs = catalogs.withCatalogs;
