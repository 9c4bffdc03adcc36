import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '@panelfleet/contract';
import type { LanguageStrings } from './strings';

// Each screen family may keep its strings in `locales/<area>.zh-CN.json` and `<area>.en-US.json`;
// they are merged into the shared catalogs (a key defined twice fails at load). Only the language
// in use is downloaded, in one chunk with the contract's messages of that language
// (strings.<language>.ts): the other one comes when the user switches.
const stringFiles: Record<Language, () => Promise<LanguageStrings>> = {
  'zh-CN': () => import('./strings.zh-CN').then((m) => m.strings),
  'en-US': () => import('./strings.en-US').then((m) => m.strings),
};

/** The console's strings of one language: the shared catalog and every area's. */
export const loadConsoleCatalog = async (language: Language) => (await stringFiles[language]()).console;

/** The contract's messages of one language, as `messageCatalogs` of the contract merges them. */
export const loadContractCatalog = async (language: Language) => (await stringFiles[language]()).contract;

/** Namespace of the contract's messages (validation keys shared with the server). */
export const CONTRACT_NS = 'contract';

/** Languages whose console catalog is in i18next (screens may add their own bundles earlier). */
const loaded = new Set<Language>();

async function ensureLanguage(language: Language) {
  if (loaded.has(language)) return;
  const strings = await stringFiles[language]();
  i18n.addResourceBundle(language, 'translation', strings.console, true, false);
  i18n.addResourceBundle(language, CONTRACT_NS, strings.contract, true, false);
  loaded.add(language);
}

/** Starts i18next with the user's language loaded; the first render waits for it. */
export async function initI18n(language: Language) {
  await i18n.use(initReactI18next).init({
    resources: {},
    partialBundledLanguages: true,
    lng: language,
    fallbackLng: false,
    ns: ['translation', CONTRACT_NS],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
  });
  await ensureLanguage(language);
  return i18n;
}

/** Switches the console's language, downloading its strings the first time. */
export async function switchLanguage(language: Language) {
  await ensureLanguage(language);
  await i18n.changeLanguage(language);
}

export { i18n };
