import { describe, expect, it } from 'vitest';
import { mergeCatalogs, messageCatalogs, VIEW_NAMES } from '@panelfleet/contract';
import { loadConsoleCatalog, loadContractCatalog } from './index';
import { SKINS } from '../features/shell/skins';

/** Every message file of the contract, by name ("ota.en-US"). */
const contractFiles = Object.fromEntries(
  Object.entries(
    import.meta.glob<Record<string, unknown>>('../../../../packages/contract/src/i18n/*.json', {
      eager: true,
      import: 'default',
    }),
  ).map(([file, catalog]) => [
    file
      .split('/')
      .pop()!
      .replace(/\.json$/, ''),
    catalog,
  ]),
);

/** The contract's message files that load with their screens (each family's `catalogs.ts`). */
const LAZY_CONTRACT = [
  'programs',
  'oplog',
  'screenshots',
  'ota',
  'alerts',
  'reports',
  'apk',
  'dashboard',
  'certificate',
  'settings',
  'device-import',
  'device-csv',
  'api-tokens',
];

/** The console's catalogs that load with their screens (the `locales` folders of the features), by file. */
const lazyConsoleFiles = import.meta.glob<Record<string, unknown>>('../features/**/locales/*.json', {
  eager: true,
  import: 'default',
});

const consoleCatalogs = {
  'zh-CN': await loadConsoleCatalog('zh-CN'),
  'en-US': await loadConsoleCatalog('en-US'),
};

/** Every leaf key of a nested catalog, dotted. */
function leafKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([key, value]) => leafKeys(value, prefix ? `${prefix}.${key}` : key));
}

const leaves = (catalog: Record<string, unknown>) =>
  Object.fromEntries(
    leafKeys(catalog).map((key) => [
      key,
      key.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown>)[k], catalog),
    ]),
  );

describe('console catalogs', () => {
  const zh = leaves(consoleCatalogs['zh-CN']);
  const en = leaves(consoleCatalogs['en-US']);

  it('zh-CN and en-US have identical key sets', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('every message is a non-empty string (a separator between words may be blank)', () => {
    for (const [key, value] of [...Object.entries(zh), ...Object.entries(en)]) {
      expect(typeof value, key).toBe('string');
      if (!key.endsWith('.separator')) expect((value as string).trim(), key).not.toBe('');
    }
  });

  it('names every view and every skin', () => {
    for (const view of VIEW_NAMES) expect(en[`views.${view}`], view).toBeTypeOf('string');
    for (const skin of SKINS) expect(en[`skins.${skin.id}`], skin.id).toBeTypeOf('string');
  });
});

describe('contract catalogs', () => {
  it('zh-CN and en-US have identical key sets', () => {
    expect(leafKeys(messageCatalogs['zh-CN']).sort()).toEqual(leafKeys(messageCatalogs['en-US']).sort());
  });

  it('the console loads the same messages the server answers with, one language at a time', async () => {
    for (const language of ['zh-CN', 'en-US'] as const) {
      const startUp = await loadContractCatalog(language);
      for (const name of LAZY_CONTRACT) {
        const lazy = contractFiles[`${name}.${language}`]!;
        expect(lazy, name).toBeTypeOf('object');
        // None of a lazy file's messages is in the start-up strings.
        for (const key of leafKeys(lazy))
          expect(startUp, `${name}: ${key}`).not.toHaveProperty(key.split('.'));
      }
      const lazy = LAZY_CONTRACT.map((name) => contractFiles[`${name}.${language}`]!);
      expect(mergeCatalogs(startUp, ...lazy)).toEqual(messageCatalogs[language]);
    }
  });
});

describe('catalogs that load with their screens', () => {
  it('each has zh-CN and en-US with identical key sets and no empty message', () => {
    const files = Object.keys(lazyConsoleFiles).filter((file) => file.endsWith('.en-US.json'));
    expect(files.length).toBeGreaterThanOrEqual(9);
    for (const file of files) {
      const en = leaves(lazyConsoleFiles[file]!);
      const zh = leaves(lazyConsoleFiles[file.replace('.en-US.json', '.zh-CN.json')]!);
      expect(Object.keys(zh).sort(), file).toEqual(Object.keys(en).sort());
      for (const [key, value] of [...Object.entries(zh), ...Object.entries(en)])
        expect(typeof value === 'string' && value.trim() !== '', `${file}: ${key}`).toBe(true);
    }
  });
});
