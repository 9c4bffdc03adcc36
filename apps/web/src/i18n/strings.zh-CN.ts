// Every string of zh-CN in one chunk, loaded when the console starts or switches to zh-CN.
import consoleBase from '../locales/zh-CN.json';
import contractBase from '../../../../packages/contract/src/i18n/zh-CN.json';
import { mergeFiles, type Catalog, type LanguageStrings } from './strings';

export const strings: LanguageStrings = {
  console: mergeFiles(
    consoleBase,
    import.meta.glob<Catalog>('../locales/*.zh-CN.json', { eager: true, import: 'default' }),
  ),
  contract: mergeFiles(
    contractBase,
    // Each family of screens loads its own messages with its screens (the `catalogs.ts` of its
    // feature folder): the program tab, the operation log's words (log and report screens), the
    // screenshots, OTA, alerts, reports and tips, the APK tab, dashboards, the certificate, settings,
    // the device import and the API tokens.
    import.meta.glob<Catalog>(
      [
        '../../../../packages/contract/src/i18n/*.zh-CN.json',
        '!../../../../packages/contract/src/i18n/programs.zh-CN.json',
        '!../../../../packages/contract/src/i18n/oplog.zh-CN.json',
        '!../../../../packages/contract/src/i18n/screenshots.zh-CN.json',
        '!../../../../packages/contract/src/i18n/ota.zh-CN.json',
        '!../../../../packages/contract/src/i18n/alerts.zh-CN.json',
        '!../../../../packages/contract/src/i18n/reports.zh-CN.json',
        '!../../../../packages/contract/src/i18n/apk.zh-CN.json',
        '!../../../../packages/contract/src/i18n/dashboard.zh-CN.json',
        '!../../../../packages/contract/src/i18n/certificate.zh-CN.json',
        '!../../../../packages/contract/src/i18n/settings.zh-CN.json',
        '!../../../../packages/contract/src/i18n/device-import.zh-CN.json',
        '!../../../../packages/contract/src/i18n/device-csv.zh-CN.json',
        '!../../../../packages/contract/src/i18n/api-tokens.zh-CN.json',
      ],
      { eager: true, import: 'default' },
    ),
  ),
};
