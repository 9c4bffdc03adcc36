import type { Language } from '@panelfleet/contract';
import { CONTRACT_NS, i18n } from '../../i18n';

/**
 * The program screens' strings load with the program tab (not in the initial bundle): both
 * languages at once, so switching language on the tab needs nothing more.
 */
type Loader = () => Promise<{ default: Record<string, unknown> }>;
const LOADERS: Record<Language, Loader> = {
  'zh-CN': () => import('./locales/programs.zh-CN.json'),
  'en-US': () => import('./locales/programs.en-US.json'),
};
/** The contract's program messages (form checks in the program dialogs), kept out of the start-up strings. */
const CONTRACT_LOADERS: Record<Language, Loader> = {
  'zh-CN': () => import('../../../../../packages/contract/src/i18n/programs.zh-CN.json'),
  'en-US': () => import('../../../../../packages/contract/src/i18n/programs.en-US.json'),
};

let loading: Promise<void> | undefined;

function loadProgramCatalogs(): Promise<void> {
  loading ??= Promise.all(
    (Object.keys(LOADERS) as Language[]).map(async (language) => {
      const [catalog, contract] = await Promise.all([LOADERS[language](), CONTRACT_LOADERS[language]()]);
      i18n.addResourceBundle(language, 'translation', catalog.default, true, false);
      i18n.addResourceBundle(language, CONTRACT_NS, contract.default, true, false);
    }),
  ).then(
    () => undefined,
    (error: unknown) => {
      // A failed chunk load may succeed on the next visit.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** A screen module that needs the program strings: loads both before the screen renders. */
export const withProgramCatalogs =
  <M>(load: () => Promise<M>) =>
  async (): Promise<M> => {
    const [module] = await Promise.all([load(), loadProgramCatalogs()]);
    return module;
  };
