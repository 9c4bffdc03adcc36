import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConsoleCatalog, loadContractCatalog } from './index';

/**
 * Every string a module shows is loaded before it renders: with the start-up strings, or by a
 * family's `catalogs.ts` whose wrapper (`withXCatalogs(() => import(...))`) loads the module, or an
 * importer of it. The console's module graph is read from the sources: static imports keep what is
 * loaded, a wrapped lazy import adds the family's strings, and a module reached along several paths
 * has only what every path loads. Each quoted literal that is a key of some catalog (a template's
 * `prefix.${...}`: a group of keys) must be in the start-up strings or in a family loaded there;
 * otherwise the screen would show the raw key.
 */

const SRC = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const CONTRACT_I18N = path.resolve(SRC, '../../../packages/contract/src/i18n');

type Sources = Map<string, string>;
type Catalog = Record<string, unknown>;
/** Per namespace, every key (leaf or group) of a catalog. */
type Keys = { translation: Set<string>; contract: Set<string> };

function readSources(): Sources {
  const sources: Sources = new Map();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
        sources.set(file, fs.readFileSync(file, 'utf8'));
    }
  };
  walk(SRC);
  return sources;
}

const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

function keysOf(catalog: unknown, prefix = '', into = new Set<string>()): Set<string> {
  if (prefix) into.add(prefix);
  if (typeof catalog === 'object' && catalog !== null)
    for (const [key, value] of Object.entries(catalog))
      keysOf(value, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

function resolveModule(from: string, specifier: string, sources: Sources): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((f) =>
    sources.has(f),
  );
}

/** A family's strings: the catalog files its `catalogs.ts` loads, by namespace. */
function familyKeys(file: string, text: string): Keys {
  const keys: Keys = { translation: new Set(), contract: new Set() };
  for (const [, json] of text.matchAll(/import\(\s*'([^']+\.json)'\s*\)/g)) {
    const jsonFile = path.resolve(path.dirname(file), json!);
    const catalog = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as Catalog;
    keysOf(catalog, '', jsonFile.startsWith(CONTRACT_I18N) ? keys.contract : keys.translation);
  }
  return keys;
}

interface Graph {
  /** Per module reached from main.tsx, the families (their catalogs.ts) loaded before it renders. */
  loaded: Map<string, Set<string>>;
  families: Map<string, Keys>;
}

/** Walks the module graph from main.tsx: what each module may count on being loaded. */
function walkGraph(sources: Sources): Graph {
  const families = new Map<string, Keys>();
  for (const [file, text] of sources)
    if (path.basename(file) === 'catalogs.ts' && text.includes('lazyCatalogs('))
      families.set(file, familyKeys(file, text));
  const loaded = new Map<string, Set<string>>();
  const queue: Array<[string, Set<string>]> = [[path.join(SRC, 'main.tsx'), new Set()]];
  while (queue.length) {
    const [file, incoming] = queue.shift()!;
    const before = loaded.get(file);
    const now = before ? new Set([...before].filter((f) => incoming.has(f))) : incoming;
    if (before && before.size === now.size) continue;
    loaded.set(file, now);
    const text = withoutComments(sources.get(file)!);
    // Names this module imports from a family's catalogs.ts: its wrappers and hooks.
    const wrappers = new Map<string, string>();
    for (const [, names, spec] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
      const target = spec!.startsWith('.') ? resolveModule(file, spec!, sources) : undefined;
      if (target && families.has(target))
        for (const name of names!.split(',').map((n) => n.trim()))
          if (name) wrappers.set(name.split(/\s+as\s+/).pop()!, target);
    }
    for (const [, spec] of text.matchAll(/(?:import|export)\s[^'"`;]*?from\s*'(\.[^']+)'/g)) {
      const target = resolveModule(file, spec!, sources);
      if (target) queue.push([target, now]);
    }
    for (const [, chain, spec] of text.matchAll(
      /((?:[\w.]+\(\s*)*)\(\)\s*=>\s*import\(\s*'(\.[^']+)'\s*\)/g,
    )) {
      const target = resolveModule(file, spec!, sources);
      if (!target) continue;
      const adds = [...chain!.matchAll(/([\w.]+)\(/g)].map(([, n]) => wrappers.get(n!)).filter(Boolean);
      queue.push([target, new Set([...now, ...(adds as string[])])]);
    }
  }
  return { loaded, families };
}

/** Quoted literals of a module that name a key or a group of keys (`a.b.${x}` names the group `a.b`). */
function keyLiterals(text: string): string[] {
  const found = new Set<string>();
  for (const [, key] of text.matchAll(/['"`]([A-Za-z][\w-]*(?:\.[\w-]+)+)['"`]/g)) found.add(key!);
  for (const [, group] of text.matchAll(/`([A-Za-z][\w-]*(?:\.[\w-]+)*)\.\$\{/g)) found.add(group!);
  return [...found];
}

/** The keys a module uses that are not loaded when it renders, as "module: key". */
function missingStrings(sources: Sources, startUp: Keys): string[] {
  const { loaded, families } = walkGraph(sources);
  const known = (keys: Keys, key: string) =>
    [keys.translation, keys.contract].some(
      (set) => set.has(key) || set.has(`${key}_one`) || set.has(`${key}_other`),
    );
  const missing: string[] = [];
  for (const [file, reached] of loaded) {
    const text = withoutComments(sources.get(file)!);
    // A module that waits for a family itself (`useXCatalogs()`) may use its strings once ready.
    const own = [...text.matchAll(/\b(use\w+Catalogs)\(\)/g)].flatMap(([, hook]) =>
      [...families.keys()].filter((f) => sources.get(f)!.includes(`function ${hook!}(`)),
    );
    const available = [startUp, ...[...reached, ...own].map((f) => families.get(f)!)];
    for (const key of keyLiterals(text)) {
      const somewhere = known(startUp, key) || [...families.values()].some((keys) => known(keys, key));
      if (somewhere && !available.some((keys) => known(keys, key)))
        missing.push(`${path.relative(SRC, file)}: ${key}`);
    }
  }
  return missing.sort();
}

const startUpKeys = async (language: 'zh-CN' | 'en-US'): Promise<Keys> => ({
  translation: keysOf(await loadConsoleCatalog(language)),
  contract: keysOf(await loadContractCatalog(language)),
});

describe('every screen has its strings before it renders', () => {
  const sources = readSources();
  const rel = (file: string) => path.join(SRC, file);

  it('walks the console from main.tsx through the lazy screens and their families', () => {
    const { loaded, families } = walkGraph(sources);
    const familiesOf = (file: string) =>
      [...(loaded.get(rel(file)) ?? [])].map((f) => path.relative(SRC, path.dirname(f))).sort();
    expect(loaded.has(rel('features/auth/LoginPage.tsx'))).toBe(true);
    expect(familiesOf('features/auth/LoginPage.tsx')).toEqual([]);
    expect(familiesOf('features/reports/ReportPanel.tsx')).toEqual(['features/logs', 'features/reports']);
    expect(familiesOf('features/apk/InstallTasks.tsx')).toEqual(['features/apk', 'features/ota']);
    // Reached from the OTA log (with the report strings) and from OTA management (without them).
    expect(familiesOf('features/ota/tasks/states.tsx')).toEqual(['features/ota']);
    // The device detail opens from the device screens and the alert centre, both with the settings.
    expect(familiesOf('features/devices/history/HistoryTab.tsx')).toEqual([
      'features/devices/history',
      'features/ota',
      'features/settings',
    ]);
    expect(families.size).toBeGreaterThanOrEqual(13);
    expect(loaded.size).toBeGreaterThan(300);
  });

  for (const language of ['zh-CN', 'en-US'] as const)
    it(`no module uses a key its screen has not loaded (${language})`, async () => {
      expect(missingStrings(sources, await startUpKeys(language))).toEqual([]);
    });

  it('fails when a screen is loaded without its family', async () => {
    const views = rel('features/shell/views.ts');
    const unwrapped = new Map(sources);
    unwrapped.set(
      views,
      sources
        .get(views)!
        .replace(
          "withReportCatalogs(() => import('../tips/ErrorTipsView'))",
          "(() => import('../tips/ErrorTipsView'))",
        ),
    );
    expect(unwrapped.get(views)).not.toBe(sources.get(views));
    const missing = missingStrings(unwrapped, await startUpKeys('en-US'));
    expect(missing).toContain('features/tips/ErrorTipsView.tsx: errorTips.fillAll');
    expect(missing.every((line) => line.startsWith('features/tips/'))).toBe(true);
  });

  it('fails when a shared module uses a key that only a family loads', async () => {
    const header = rel('features/shell/AppHeader.tsx');
    const changed = new Map(sources);
    changed.set(
      header,
      `${sources.get(header)!}\nexport const stray = (t: (k: string) => string) => t('apkPage.title');\n`,
    );
    expect(missingStrings(changed, await startUpKeys('en-US'))).toEqual([
      'features/shell/AppHeader.tsx: apkPage.title',
    ]);
  });
});
