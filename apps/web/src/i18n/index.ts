import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { messageCatalogs, type Language } from '@panelfleet/contract';
import zhCN from '../locales/zh-CN.json';
import enUS from '../locales/en-US.json';

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
