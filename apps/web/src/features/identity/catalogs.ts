import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/** The second factor's and sessions' strings load with their screens (not with the sign-in form). */
const identity = lazyCatalogs({
  'zh-CN': [{ namespace: 'translation', load: () => import('./locales/identity.zh-CN.json') }],
  'en-US': [{ namespace: 'translation', load: () => import('./locales/identity.en-US.json') }],
});

/** A module that needs the identity strings: loads both before it renders. */
export const withIdentityCatalogs = identity.withCatalogs;
