import type { Language } from '@panelfleet/contract';
import { i18n } from '../../i18n';

/**
 * The OTA screens' strings load with the OTA screens (not in the initial bundle): both
 * languages at once, so switching language on an OTA screen needs nothing more.
 */
const LOADERS: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  'zh-CN': () => import('./locales/ota.zh-CN.json'),
  'en-US': () => import('./locales/ota.en-US.json'),
};

let loading: Promise<void> | undefined;

export function loadOtaCatalogs(): Promise<void> {
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

/** A screen module that needs the OTA strings: loads both before the screen renders. */
export const withOtaCatalogs =
  <M>(load: () => Promise<M>) =>
  async (): Promise<M> => {
    const [module] = await Promise.all([load(), loadOtaCatalogs()]);
    return module;
  };
