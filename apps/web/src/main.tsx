import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import type { Language } from '@panelfleet/contract';
import { configureClient } from './api/client';
import { initI18n } from './i18n';
import { loadLanguage } from './i18n/language';
import { applyLanguage, PreferencesProvider } from './app/Preferences';
import { queryClient } from './app/queryClient';
import { App } from './App';
import './index.css';

async function start() {
  const language = loadLanguage(localStorage, navigator.language);
  // The first render waits for the strings of the user's language (a chunk of its own).
  const i18n = await initI18n(language);
  applyLanguage(language);
  configureClient({ language: () => i18n.language as Language });

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <PreferencesProvider>
          <App />
        </PreferencesProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

void start();
