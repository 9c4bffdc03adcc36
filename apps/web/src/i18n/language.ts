import { resolveLanguage, type Language } from '@panelfleet/contract';

export const LANGUAGE_STORAGE_KEY = 'language';

/**
 * The stored choice comes first; only zh-CN survives as stored, anything else reads as en-US.
 * Without a stored choice the browser language decides (spec 1 section 9).
 */
export function initialLanguage(stored: string | null, browserLanguage: string | undefined): Language {
  if (stored !== null && stored !== '') return stored === 'zh-CN' ? 'zh-CN' : 'en-US';
  return resolveLanguage(browserLanguage);
}

export const loadLanguage = (
  storage: Pick<Storage, 'getItem'>,
  browserLanguage: string | undefined,
): Language => initialLanguage(storage.getItem(LANGUAGE_STORAGE_KEY), browserLanguage);

export const saveLanguage = (storage: Pick<Storage, 'setItem'>, language: Language): void =>
  storage.setItem(LANGUAGE_STORAGE_KEY, language);

/** dayjs names its locales differently. */
export const dayjsLocaleOf = (language: Language): string => (language === 'zh-CN' ? 'zh-cn' : 'en');
