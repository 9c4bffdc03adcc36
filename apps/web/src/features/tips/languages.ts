import { tips } from '@panelfleet/contract';

/** "de_DE · German": the code as the legacy writes it, and the language's name in the console's language. */
export function reminderLanguageLabel(code: string, uiLanguage: string): string {
  const base = code.split('_')[0] ?? code;
  try {
    const name = new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(base);
    return name && name !== base ? `${code} · ${name}` : code;
  } catch {
    return code;
  }
}

export const reminderLanguageOptions = (uiLanguage: string) =>
  tips.REMINDER_LANGUAGES.map((value) => ({ value, label: reminderLanguageLabel(value, uiLanguage) }));
