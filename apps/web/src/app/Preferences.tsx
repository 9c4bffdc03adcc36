import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import zhCNLocale from 'antd/locale/zh_CN';
import enUSLocale from 'antd/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useTranslation } from 'react-i18next';
import type { Language } from '@panelfleet/contract';
import { switchLanguage } from '../i18n';
import { dayjsLocaleOf, saveLanguage } from '../i18n/language';
import { loadSkin, saveSkin, skinById, type Skin, type SkinId } from '../features/shell/skins';
import { usePrefersReducedMotion } from './reducedMotion';

interface Preferences {
  language: Language;
  setLanguage(language: Language): void;
  skin: Skin;
  setSkin(id: SkinId): void;
}

const PreferencesContext = createContext<Preferences | null>(null);

export function usePreferences(): Preferences {
  const preferences = useContext(PreferencesContext);
  if (!preferences) throw new Error('usePreferences outside PreferencesProvider');
  return preferences;
}

/** Applies a language everywhere it shows: i18next, dayjs and the document. */
export function applyLanguage(language: Language): void {
  dayjs.locale(dayjsLocaleOf(language));
  document.documentElement.lang = language;
}

/** Language and skin, remembered locally, and the antd theme (with the system's motion preference) and locale that follow them. */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const [language, setLanguageState] = useState<Language>(i18n.language as Language);
  const [skin, setSkinState] = useState<Skin>(() => loadSkin(localStorage));

  const setLanguage = useCallback((next: Language) => {
    saveLanguage(localStorage, next);
    // The antd locale and the page follow once the strings are there, so nothing shows half-switched.
    switchLanguage(next).then(
      () => {
        applyLanguage(next);
        setLanguageState(next);
      },
      (err: unknown) => console.error(`the ${next} strings did not load`, err),
    );
  }, []);

  const setSkin = useCallback((id: SkinId) => {
    saveSkin(localStorage, id);
    setSkinState(skinById(id));
  }, []);

  const value = useMemo(
    () => ({ language, setLanguage, skin, setSkin }),
    [language, setLanguage, skin, setSkin],
  );
  const reducedMotion = usePrefersReducedMotion();
  const theme = useMemo(
    () => ({ token: { colorPrimary: skin.color, motion: !reducedMotion } }),
    [skin, reducedMotion],
  );

  return (
    <PreferencesContext.Provider value={value}>
      <ConfigProvider locale={language === 'zh-CN' ? zhCNLocale : enUSLocale} theme={theme}>
        {children}
      </ConfigProvider>
    </PreferencesContext.Provider>
  );
}
