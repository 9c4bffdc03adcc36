import enUSBase from './i18n/en-US.json' with { type: 'json' };
import zhCNBase from './i18n/zh-CN.json' with { type: 'json' };
import { mergeCatalogs } from './merge-catalogs.js';
import settingsEnUS from './i18n/settings.en-US.json' with { type: 'json' };
import settingsZhCN from './i18n/settings.zh-CN.json' with { type: 'json' };
import certificateEnUS from './i18n/certificate.en-US.json' with { type: 'json' };
import certificateZhCN from './i18n/certificate.zh-CN.json' with { type: 'json' };
import otaEnUS from './i18n/ota.en-US.json' with { type: 'json' };
import otaZhCN from './i18n/ota.zh-CN.json' with { type: 'json' };
import reportsEnUS from './i18n/reports.en-US.json' with { type: 'json' };
import reportsZhCN from './i18n/reports.zh-CN.json' with { type: 'json' };
import dashboardEnUS from './i18n/dashboard.en-US.json' with { type: 'json' };
import dashboardZhCN from './i18n/dashboard.zh-CN.json' with { type: 'json' };
import apkEnUS from './i18n/apk.en-US.json' with { type: 'json' };
import apkZhCN from './i18n/apk.zh-CN.json' with { type: 'json' };
import programsEnUS from './i18n/programs.en-US.json' with { type: 'json' };
import programsZhCN from './i18n/programs.zh-CN.json' with { type: 'json' };
import ssoEnUS from './i18n/sso.en-US.json' with { type: 'json' };
import ssoZhCN from './i18n/sso.zh-CN.json' with { type: 'json' };
import oplogEnUS from './i18n/oplog.en-US.json' with { type: 'json' };
import oplogZhCN from './i18n/oplog.zh-CN.json' with { type: 'json' };
import alertsEnUS from './i18n/alerts.en-US.json' with { type: 'json' };
import alertsZhCN from './i18n/alerts.zh-CN.json' with { type: 'json' };
import apiTokensEnUS from './i18n/api-tokens.en-US.json' with { type: 'json' };
import apiTokensZhCN from './i18n/api-tokens.zh-CN.json' with { type: 'json' };
import identityEnUS from './i18n/identity.en-US.json' with { type: 'json' };
import identityZhCN from './i18n/identity.zh-CN.json' with { type: 'json' };
import screenshotsEnUS from './i18n/screenshots.en-US.json' with { type: 'json' };
import screenshotsZhCN from './i18n/screenshots.zh-CN.json' with { type: 'json' };
import deviceCsvEnUS from './i18n/device-csv.en-US.json' with { type: 'json' };
import deviceCsvZhCN from './i18n/device-csv.zh-CN.json' with { type: 'json' };
import deviceImportEnUS from './i18n/device-import.en-US.json' with { type: 'json' };
import deviceImportZhCN from './i18n/device-import.zh-CN.json' with { type: 'json' };
import allMatchingEnUS from './i18n/all-matching.en-US.json' with { type: 'json' };
import allMatchingZhCN from './i18n/all-matching.zh-CN.json' with { type: 'json' };

// One pair of files per area (`i18n/<area>.en-US.json`, `i18n/<area>.zh-CN.json`) beside the
// shared pair, so that areas add messages without touching each other's files.
const areas: { 'en-US': Record<string, unknown>; 'zh-CN': Record<string, unknown> }[] = [
  { 'en-US': settingsEnUS, 'zh-CN': settingsZhCN },
  { 'en-US': certificateEnUS, 'zh-CN': certificateZhCN },
  { 'en-US': otaEnUS, 'zh-CN': otaZhCN },
  { 'en-US': reportsEnUS, 'zh-CN': reportsZhCN },
  { 'en-US': dashboardEnUS, 'zh-CN': dashboardZhCN },
  { 'en-US': apkEnUS, 'zh-CN': apkZhCN },
  { 'en-US': programsEnUS, 'zh-CN': programsZhCN },
  { 'en-US': oplogEnUS, 'zh-CN': oplogZhCN },
  { 'en-US': alertsEnUS, 'zh-CN': alertsZhCN },
  { 'en-US': apiTokensEnUS, 'zh-CN': apiTokensZhCN },
  { 'en-US': identityEnUS, 'zh-CN': identityZhCN },
  { 'en-US': ssoEnUS, 'zh-CN': ssoZhCN },
  { 'en-US': screenshotsEnUS, 'zh-CN': screenshotsZhCN },
  { 'en-US': deviceCsvEnUS, 'zh-CN': deviceCsvZhCN },
  { 'en-US': deviceImportEnUS, 'zh-CN': deviceImportZhCN },
  { 'en-US': allMatchingEnUS, 'zh-CN': allMatchingZhCN },
];

const bases = { 'en-US': enUSBase, 'zh-CN': zhCNBase };
const catalogOf = (language: 'en-US' | 'zh-CN') =>
  mergeCatalogs(bases[language], ...areas.map((a) => a[language]));
// Pure: a bundle that does not use the catalogs (the console loads them per language) drops them.
const enUS = /* @__PURE__ */ catalogOf('en-US');
const zhCN = /* @__PURE__ */ catalogOf('zh-CN');

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
export function translate(
  language: Language,
  key: string,
  vars: Record<string, string | number> = {},
): string {
  const text = lookup(messageCatalogs[language], key) ?? lookup(enUS, key) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}
