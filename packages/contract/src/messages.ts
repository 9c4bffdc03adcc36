import enUS from './i18n/en-US.json' with { type: 'json' };
import zhCN from './i18n/zh-CN.json' with { type: 'json' };

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Messages shared by server replies and console validation, keyed as the spec names them. */
export const messageCatalogs: Record<Language, Record<string, unknown>> = { 'zh-CN': zhCN, 'en-US': enUS };

/** zh-CN when the header names Chinese first, otherwise en-US (spec 1 section 9). */
export function resolveLanguage(header: string | undefined | null): Language {
  const first = (header ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh-CN' : 'en-US';
}

function lookup(catalog: Record<string, unknown>, key: string): string | undefined {
  let node: unknown = catalog;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export const hasMessage = (key: string) => lookup(enUS, key) !== undefined;

/** The message for `key` in `language`, with {{name}} placeholders filled; the key itself if unknown. */
export function translate(language: Language, key: string, vars: Record<string, string | number> = {}): string {
  const text = lookup(messageCatalogs[language], key) ?? lookup(enUS, key) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}
