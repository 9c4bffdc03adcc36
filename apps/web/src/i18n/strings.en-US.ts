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
    // The program messages load with the program tab (features/programs/catalogs.ts), the operation
    // log's words with the log and report screens (features/logs/catalogs.ts), the screenshot
    // messages with the screenshot screens (features/screenshots/catalogs.ts).
    import.meta.glob<Catalog>(
      [
        '../../../../packages/contract/src/i18n/*.en-US.json',
        '!../../../../packages/contract/src/i18n/programs.en-US.json',
        '!../../../../packages/contract/src/i18n/oplog.en-US.json',
        '!../../../../packages/contract/src/i18n/screenshots.en-US.json',
      ],
      { eager: true, import: 'default' },
    ),
  ),
};
