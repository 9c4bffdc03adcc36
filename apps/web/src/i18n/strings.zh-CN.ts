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
    import.meta.glob<Catalog>('../../../../packages/contract/src/i18n/*.zh-CN.json', {
      eager: true,
      import: 'default',
    }),
  ),
};
