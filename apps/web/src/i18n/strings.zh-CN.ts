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
    // The program messages load with the program tab (features/programs/catalogs.ts), the operation
    // log's words with the log and report screens (features/logs/catalogs.ts), the screenshot
    // messages with the screenshot screens (features/screenshots/catalogs.ts).
    import.meta.glob<Catalog>(
      [
        '../../../../packages/contract/src/i18n/*.zh-CN.json',
        '!../../../../packages/contract/src/i18n/programs.zh-CN.json',
        '!../../../../packages/contract/src/i18n/oplog.zh-CN.json',
        '!../../../../packages/contract/src/i18n/screenshots.zh-CN.json',
      ],
      { eager: true, import: 'default' },
    ),
  ),
};
