import { describe, expect, it } from 'vitest';
import { mergeCatalogs, messageCatalogs, VIEW_NAMES } from '@panelfleet/contract';
import programsEnUS from '../../../../packages/contract/src/i18n/programs.en-US.json';
import programsZhCN from '../../../../packages/contract/src/i18n/programs.zh-CN.json';
import oplogEnUS from '../../../../packages/contract/src/i18n/oplog.en-US.json';
import oplogZhCN from '../../../../packages/contract/src/i18n/oplog.zh-CN.json';
import screenshotsEnUS from '../../../../packages/contract/src/i18n/screenshots.en-US.json';
import screenshotsZhCN from '../../../../packages/contract/src/i18n/screenshots.zh-CN.json';
import { loadConsoleCatalog, loadContractCatalog } from './index';
import { SKINS } from '../features/shell/skins';

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
    // The program messages load with the program tab (features/programs/catalogs.ts), the
    // operation log's words with the log and report screens (features/logs/catalogs.ts), the
    // screenshot messages with the screenshot screens (features/screenshots/catalogs.ts).
    const lazy = {
      'zh-CN': [programsZhCN, oplogZhCN, screenshotsZhCN],
      'en-US': [programsEnUS, oplogEnUS, screenshotsEnUS],
    };
    for (const language of ['zh-CN', 'en-US'] as const) {
      const startUp = await loadContractCatalog(language);
      expect(startUp).not.toHaveProperty('program');
      expect(startUp).not.toHaveProperty('oplog');
      expect(mergeCatalogs(startUp, ...lazy[language])).toEqual(messageCatalogs[language]);
    }
  });
});
