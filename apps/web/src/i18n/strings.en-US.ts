// Every string of en-US in one chunk, loaded when the console starts or switches to en-US.
import consoleBase from '../locales/en-US.json';
import contractBase from '../../../../packages/contract/src/i18n/en-US.json';
import { mergeFiles, type Catalog, type LanguageStrings } from './strings';

export const strings: LanguageStrings = {
  console: mergeFiles(
    consoleBase,
    import.meta.glob<Catalog>('../locales/*.en-US.json', { eager: true, import: 'default' }),
  ),
  contract: mergeFiles(
    contractBase,
    // Each family of screens loads its own messages with its screens (the `catalogs.ts` of its
    // feature folder): the program tab, the operation log's words (log and report screens), the
    // screenshots, OTA, alerts, reports and tips, the APK tab, dashboards, the certificate, settings,
    // the device import and the API tokens.
    import.meta.glob<Catalog>(
      [
        '../../../../packages/contract/src/i18n/*.en-US.json',
        '!../../../../packages/contract/src/i18n/programs.en-US.json',
        '!../../../../packages/contract/src/i18n/oplog.en-US.json',
        '!../../../../packages/contract/src/i18n/screenshots.en-US.json',
        '!../../../../packages/contract/src/i18n/ota.en-US.json',
        '!../../../../packages/contract/src/i18n/alerts.en-US.json',
        '!../../../../packages/contract/src/i18n/reports.en-US.json',
        '!../../../../packages/contract/src/i18n/apk.en-US.json',
        '!../../../../packages/contract/src/i18n/dashboard.en-US.json',
        '!../../../../packages/contract/src/i18n/certificate.en-US.json',
        '!../../../../packages/contract/src/i18n/settings.en-US.json',
        '!../../../../packages/contract/src/i18n/device-import.en-US.json',
        '!../../../../packages/contract/src/i18n/device-csv.en-US.json',
        '!../../../../packages/contract/src/i18n/api-tokens.en-US.json',
      ],
      { eager: true, import: 'default' },
    ),
  ),
};
