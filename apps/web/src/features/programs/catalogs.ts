import type { Language } from '@panelfleet/contract';
import { i18n } from '../../i18n';

/**
 * The program screens' strings load with the program tab (not in the initial bundle): both
 * languages at once, so switching language on the tab needs nothing more.
 */
const LOADERS: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  'zh-CN': () => import('./locales/programs.zh-CN.json'),
  'en-US': () => import('./locales/programs.en-US.json'),
};

let loading: Promise<void> | undefined;

function loadProgramCatalogs(): Promise<void> {
  loading ??= Promise.all(
    (Object.keys(LOADERS) as Language[]).map(async (language) => {
      const catalog = (await LOADERS[language]()).default;
      i18n.addResourceBundle(language, 'translation', catalog, true, false);
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
