import type { Language } from '@panelfleet/contract';
import { i18n } from './index';

type Catalog = () => Promise<{ default: Record<string, unknown> }>;
/** Per language, the catalogs to add and the namespace each goes to. */
export type CatalogLoaders = Record<Language, Array<{ namespace: string; load: Catalog }>>;

/**
 * Strings that load with their screens instead of in the initial bundle: both languages at once,
 * so switching language on such a screen needs nothing more. Returns the wrapper for the screens'
 * lazy imports: a screen module and its strings load together before it renders.
 */
export function lazyCatalogs(loaders: CatalogLoaders) {
  let loading: Promise<void> | undefined;
  const loadCatalogs = (): Promise<void> => {
    loading ??= Promise.all(
      (Object.keys(loaders) as Language[]).flatMap((language) =>
        loaders[language].map(async ({ namespace, load }) => {
          i18n.addResourceBundle(language, namespace, (await load()).default, true, false);
        }),
      ),
    ).then(
      () => undefined,
      (error: unknown) => {
        // A failed chunk load may succeed on the next visit.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    loadCatalogs,
    withCatalogs:
      <M>(load: () => Promise<M>) =>
      async (): Promise<M> => {
        const [module] = await Promise.all([load(), loadCatalogs()]);
        return module;
      },
  };
}
