import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { mergeCatalogs, messageCatalogs, type Language } from '@panelfleet/contract';
import zhCNBase from '../locales/zh-CN.json';
import enUSBase from '../locales/en-US.json';

// Each screen family may keep its strings in `locales/<area>.zh-CN.json` and `<area>.en-US.json`;
// they are merged into the shared catalogs (a key defined twice fails at load).
type Catalog = Record<string, unknown>;
const areaCatalogs = (files: Record<string, Catalog>) => Object.values(files);
const zhCN = mergeCatalogs(
  zhCNBase,
  ...areaCatalogs(import.meta.glob<Catalog>('../locales/*.zh-CN.json', { eager: true, import: 'default' })),
);
const enUS = mergeCatalogs(
  enUSBase,
  ...areaCatalogs(import.meta.glob<Catalog>('../locales/*.en-US.json', { eager: true, import: 'default' })),
);

/** Namespace of the contract's messages (validation keys shared with the server). */
export const CONTRACT_NS = 'contract';

export const consoleCatalogs: Record<Language, Record<string, unknown>> = { 'zh-CN': zhCN, 'en-US': enUS };

export function initI18n(language: Language) {
  void i18n.use(initReactI18next).init({
    resources: {
      'zh-CN': { translation: zhCN, [CONTRACT_NS]: messageCatalogs['zh-CN'] },
      'en-US': { translation: enUS, [CONTRACT_NS]: messageCatalogs['en-US'] },
    },
    lng: language,
    fallbackLng: 'en-US',
    ns: ['translation', CONTRACT_NS],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    // Resources are bundled, so init completes synchronously and the first render is translated.
    initAsync: false,
  });
  return i18n;
}

export { i18n };
