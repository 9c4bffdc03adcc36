// The server's layering rules (docs/ARCHITECTURE.md, "Layering"), checked on apps/server/src:
//   a. SQL (query builder, `sql` templates, transactions) only in repository files and db/;
//   b. no import cycle between the server's folders (modules/<x> is a folder of its own, a file
//      directly in src/ is a node of its own);
//   c. no HTTP status thrown outside src/http: services raise a Refusal of a kind;
//   d. the device side's unscoped repository methods (…ForPanel, …ForPanels) are called only on
//      the device side, so no user route reaches them;
//   e. the wiring files (the composition root and what it hands app.ts) import a module only
//      through its entry, modules/<name>/index.ts (the gateway through gateway/index.ts);
//   f. an entry is imported only by the wiring files: no module wires another;
//   g. every module has an entry;
//   h. no source file in the repository over 400 lines, outside tests and migrations;
//   i. no import cycle between the repository's TypeScript files (console, contract, simulator,
//      server, bench, e2e; type imports count).
// Prints every finding and one summary line; exits 1 when anything was found.
// `--self-test` runs the checks on a small tree with one violation of each rule and fails unless
// every rule reports it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Files directly in src/ that wire modules together. */
const WIRING = ['composition-root.ts', 'composition.ts', 'foundation.ts', 'app.ts', 'main.ts'];
const MAX_LINES = 400;
/** Repository files the length rule skips: tests, migrations, data and documents. */
const NOT_SOURCE =
  /test|migrations|\.md$|\.json$|lock|\.(png|jpe?g|gif|webp|ico|woff2?|ttf|mmdb|zip|apk|bin|gz)$/i;

/** Files that hold SQL besides repository files: the database layer itself. */
const SQL_FOLDERS = ['db/'];
/** The gateway's batched state writer is a repository by another name (see ARCHITECTURE.md). */
const SQL_FILES = ['gateway/state-store.ts'];
const isRepositoryFile = (rel) => /(^|\/|-)repository\.ts$/.test(rel);

/**
 * The device side: the gateway, panel enrollment, command delivery, the handlers of panels'
 * reports (modules/<area>/panel-reports.ts) and other work driven by them (modules/<area>/panel-*.ts,
 * such as placing panels on the map), the rollout kinds that compose what each panel is sent
 * (modules/<area>/<name>-kind.ts), and the root that wires them.
 */
const PANEL_SIDE = [
  /^gateway\//,
  /^modules\/[^/]+\/panel-[\w-]+\.ts$/,
  /^modules\/[^/]+\/[^/]+-kind\.ts$/,
  /^modules\/devices\/enrollment-service\.ts$/,
  /^modules\/commands\/service\.ts$/,
  // Entries wire the device side into their module, as the root did before them.
  /^modules\/[^/]+\/index\.ts$/,
  /^composition-root\.ts$/,
];
const PANEL_CALL = /\.\w+ForPanels?\s*\(/g;

const SQL_PATTERNS = [
  [
    /\.(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|transaction|startTransaction|connection)\s*\(/g,
    'query builder',
  ],
  [/\bsql\s*(`|\.\w+\s*\(|<)/g, 'raw sql'],
];

const STATUS_PATTERNS = [
  // throw new Something('key', 404, ...): a status as a positional argument.
  [/throw\s+new\s+\w+\(\s*(?:'[^']*'|"[^"]*"|`[^`]*`|[\w.]+)\s*,\s*[1-5]\d\d\b/g, 'status thrown'],
  [/\bAppError\b/g, 'AppError (the edge class) used'],
  [/\bhttpStatus\b/g, 'httpStatus used'],
  [/\.code\(\s*[345]\d\d\s*\)/g, 'error status answered'],
  [/\bstatusCode\s*[:=]\s*[345]\d\d\b/g, 'error status set'],
];

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return walk(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Code without comment lines (// and JSDoc), keeping line numbers. */
function stripComments(text) {
  let inBlock = false;
  return text
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      if (inBlock) {
        if (trimmed.includes('*/')) inBlock = false;
        return '';
      }
      if (trimmed.startsWith('/*')) {
        inBlock = !trimmed.includes('*/');
        return '';
      }
      if (trimmed.startsWith('//')) return '';
      return line.replace(/\s\/\/\s.*$/, '');
    })
    .join('\n');
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** The node a file belongs to: src/<folder>, src/modules/<module>, or a file directly in src/. */
function nodeOf(rel) {
  const parts = rel.split('/');
  if (parts.length === 1) return parts[0];
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  if (parts[0] === 'modules') return rel;
  return parts[0];
}

function importsOf(text) {
  const found = [];
  const pattern =
    /(?:^|[^\w.])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec?.startsWith('.')) found.push({ spec, line: lineOf(text, match.index) });
  }
  return found;
}

function resolveImport(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found;
}

/** Every finding of rules a–h on a server source tree and a repository's file list. */
function check(src, repoRoot, repoFiles, options = {}) {
  const files = walk(src);
  const sqlFindings = [];
  const statusFindings = [];
  const panelFindings = [];
  const entryFindings = [];
  const graph = new Map();
  /** The entry a file of modules/ or gateway/ belongs to, or undefined. */
  const entryOf = (rel) => {
    const parts = rel.split('/');
    if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}/index.ts`;
    if (parts[0] === 'gateway' && parts.length > 1) return 'gateway/index.ts';
    return undefined;
  };

  for (const file of files) {
    const rel = path.relative(src, file).split(path.sep).join('/');
    const text = stripComments(fs.readFileSync(file, 'utf8'));
    const sqlAllowed =
      isRepositoryFile(rel) || SQL_FILES.includes(rel) || SQL_FOLDERS.some((f) => rel.startsWith(f));
    if (!sqlAllowed)
      for (const [pattern, what] of SQL_PATTERNS)
        for (const match of text.matchAll(pattern))
          sqlFindings.push(`${rel}:${lineOf(text, match.index)}: ${what} ${match[0].trim()}`);
    if (!rel.startsWith('http/')) {
      const lines = new Map();
      for (const [pattern, what] of STATUS_PATTERNS)
        for (const match of text.matchAll(pattern)) {
          const line = lineOf(text, match.index);
          if (!lines.has(line)) lines.set(line, `${rel}:${line}: ${what}: ${match[0].trim()}`);
        }
      statusFindings.push(...[...lines].sort(([a], [b]) => a - b).map(([, finding]) => finding));
    }

    if (!isRepositoryFile(rel) && !PANEL_SIDE.some((pattern) => pattern.test(rel)))
      for (const match of text.matchAll(PANEL_CALL))
        panelFindings.push(`${rel}:${lineOf(text, match.index)}: ${match[0].trim()}`);

    const from = nodeOf(rel);
    const wiring = WIRING.includes(rel);
    for (const { spec, line } of importsOf(text)) {
      const target = resolveImport(file, spec);
      if (!target || !target.startsWith(src)) continue;
      const targetRel = path.relative(src, target).split(path.sep).join('/');
      const entry = entryOf(targetRel);
      if (entry && wiring && targetRel !== entry)
        entryFindings.push(`${rel}:${line}: imports ${targetRel}, not the entry ${entry}`);
      if (entry && !wiring && targetRel === entry && entryOf(rel) !== entry)
        entryFindings.push(`${rel}:${line}: imports the entry ${entry} (only the wiring files do)`);
      const to = nodeOf(targetRel);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(`${rel}:${line} -> ${spec}`);
    }
    if (!graph.has(from)) graph.set(from, new Map());
  }
  const modulesDir = path.join(src, 'modules');
  if (fs.existsSync(modulesDir))
    for (const entry of fs.readdirSync(modulesDir, { withFileTypes: true }))
      if (entry.isDirectory() && !fs.existsSync(path.join(modulesDir, entry.name, 'index.ts')))
        entryFindings.push(`modules/${entry.name}/: no entry (index.ts)`);

  // i. cycles between files, in the whole repository.
  const fileGraph = new Map();
  for (const rel of repoFiles.filter((f) => /\.tsx?$/.test(f) && !/\.d\.ts$/.test(f))) {
    const full = path.join(repoRoot, rel);
    if (!fs.existsSync(full)) continue;
    const edges = new Map();
    for (const { spec } of importsOf(stripComments(fs.readFileSync(full, 'utf8')))) {
      const target = resolveImport(full, spec);
      if (target) edges.set(path.relative(repoRoot, target).split(path.sep).join('/'), []);
    }
    fileGraph.set(rel, edges);
  }
  const fileCycleFindings = cycles(fileGraph).map((component) => component.join(' <-> '));

  const lengthFindings = repoFiles
    .filter((rel) => !NOT_SOURCE.test(rel))
    .flatMap((rel) => {
      const full = path.join(repoRoot, rel);
      if (!fs.existsSync(full)) return [];
      const lines = fs.readFileSync(full, 'utf8').split('\n').length - 1;
      return lines > MAX_LINES ? [`${rel}: ${lines} lines`] : [];
    });

  if (options.printGraph)
    for (const [from, edges] of [...graph].sort())
      console.log(`${from} -> ${[...edges.keys()].sort().join(', ')}`);

  const cycleFindings = cycles(graph).map((component) => {
    const inside = new Set(component);
    const edges = component.flatMap((v) =>
      [...graph.get(v)].filter(([w]) => inside.has(w)).map(([w, sites]) => `    ${v} -> ${w}  (${sites[0]})`),
    );
    return `${component.join(' <-> ')}\n${edges.join('\n')}`;
  });
  return {
    files: files.length,
    folders: graph.size,
    sqlFindings,
    cycleFindings,
    statusFindings,
    panelFindings,
    entryFindings,
    lengthFindings,
    fileCycleFindings,
  };
}

/** A tree with one violation of each rule; every rule must report it. */
function selfTest() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'architecture-check-'));
  const write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  try {
    write('src/modules/a/index.ts', "export { A } from './service.js';\n");
    write(
      'src/modules/a/service.ts',
      "import { B } from '../b/service.js';\nexport class A { run(db) { return db.selectFrom('t'); } }\n",
    );
    write('src/modules/b/service.ts', "import { A } from '../a/index.js';\nexport const B = A;\n");
    write('src/modules/b/routes.ts', "export const r = (x) => { throw new Fail('k', 404); };\n");
    write('src/modules/b/hook.ts', 'export const h = (d) => d.keysForPanels([]);\n');
    write('src/composition-root.ts', "import { A } from './modules/a/service.js';\n");
    write('long.ts', 'const x = 1;\n'.repeat(MAX_LINES + 1));
    write('web/a.tsx', "import { b } from './b';\nexport const a = 1;\n");
    write('web/b.ts', "import type { a } from './a';\nexport const b = 2;\n");
    const found = check(path.join(dir, 'src'), dir, ['long.ts', 'long.test.ts', 'web/a.tsx', 'web/b.ts']);
    const expect = {
      'a. SQL': found.sqlFindings.length === 1,
      'b. cycles': found.cycleFindings.length === 1,
      'c. statuses': found.statusFindings.length === 1,
      'd. device side': found.panelFindings.length === 1,
      'e/f/g. entries': found.entryFindings.length === 3,
      'h. length': found.lengthFindings.length === 1,
      'i. file cycles': found.fileCycleFindings.length === 1,
    };
    const failed = Object.entries(expect).filter(([, ok]) => !ok);
    if (failed.length) {
      console.log(JSON.stringify(found, null, 2));
      console.log(`architecture check self-test FAILED: ${failed.map(([rule]) => rule).join(', ')}`);
      process.exit(1);
    }
    console.log('architecture check self-test: ok (each rule reports its violation)');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--self-test')) {
  selfTest();
  process.exit(0);
}

const repoFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);
const found = check(path.join(root, 'apps/server/src'), root, repoFiles, {
  printGraph: process.argv.includes('--graph'),
});

const report = (title, findings) => {
  if (!findings.length) return;
  console.log(`\n${title} (${findings.length}):`);
  for (const finding of findings) console.log(`  ${finding}`);
};
report('a. SQL outside repository files and db/', found.sqlFindings);
report('b. import cycles between server folders', found.cycleFindings);
report('c. HTTP statuses outside src/http (raise a Refusal of a kind instead)', found.statusFindings);
report('d. device-side (unscoped) repository methods called outside the device side', found.panelFindings);
report('e–g. modules wired other than through their entries', found.entryFindings);
report(`h. source files over ${MAX_LINES} lines (split them along their seams)`, found.lengthFindings);
report('i. import cycles between files', found.fileCycleFindings);

const total =
  found.sqlFindings.length +
  found.cycleFindings.length +
  found.statusFindings.length +
  found.panelFindings.length +
  found.entryFindings.length +
  found.lengthFindings.length +
  found.fileCycleFindings.length;
console.log(
  `architecture check: ${total === 0 ? 'ok' : 'FAILED'}: ${found.files} files, ${found.folders} folders; ` +
    `${found.sqlFindings.length} SQL sites outside repositories, ${found.cycleFindings.length} import cycles, ` +
    `${found.statusFindings.length} HTTP statuses outside src/http, ` +
    `${found.panelFindings.length} device-side calls outside the device side, ` +
    `${found.entryFindings.length} imports around the module entries, ` +
    `${found.lengthFindings.length} files over ${MAX_LINES} lines, ` +
    `${found.fileCycleFindings.length} import cycles between files`,
);
process.exit(total === 0 ? 0 : 1);
