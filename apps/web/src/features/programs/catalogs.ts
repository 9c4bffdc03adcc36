import { CONTRACT_NS } from '../../i18n';
import { lazyCatalogs } from '../../i18n/lazyCatalogs';

/**
 * The program screens' strings load with the program tab (not in the initial bundle), with the
 * contract's program messages (form checks in the program dialogs), kept out of the start-up strings.
 */
const programs = lazyCatalogs({
  'zh-CN': [
    { namespace: 'translation', load: () => import('./locales/programs.zh-CN.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/programs.zh-CN.json'),
    },
  ],
  'en-US': [
    { namespace: 'translation', load: () => import('./locales/programs.en-US.json') },
    {
      namespace: CONTRACT_NS,
      load: () => import('../../../../../packages/contract/src/i18n/programs.en-US.json'),
    },
  ],
});

/** A screen module that needs the program strings: loads both before the screen renders. */
export const withProgramCatalogs = programs.withCatalogs;
