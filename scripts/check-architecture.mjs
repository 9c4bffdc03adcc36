// The server's layering rules (docs/ARCHITECTURE.md, "Layering"), checked on apps/server/src:
//   a. SQL (query builder, `sql` templates, transactions) only in repository files and db/;
//   b. no import cycle between the server's folders (modules/<x> is a folder of its own, a file
//      directly in src/ is a node of its own);
//   c. no HTTP status thrown outside src/http: services raise a Refusal of a kind;
//   d. the device side's unscoped repository methods (…ForPanel, …ForPanels) are called only on
//      the device side, so no user route reaches them.
// Prints every finding and one summary line; exits 1 when anything was found.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'apps/server/src');

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
    path.join(base, 'index.ts'),
  ];
  return candidates.find((c) => fs.existsSync(c));
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

const files = walk(src);
const sqlFindings = [];
const statusFindings = [];
const panelFindings = [];
const graph = new Map();

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
  for (const { spec, line } of importsOf(text)) {
    const target = resolveImport(file, spec);
    if (!target || !target.startsWith(src)) continue;
    const to = nodeOf(path.relative(src, target).split(path.sep).join('/'));
    if (to === from) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    const edges = graph.get(from);
    if (!edges.has(to)) edges.set(to, []);
    edges.get(to).push(`${rel}:${line} -> ${spec}`);
  }
  if (!graph.has(from)) graph.set(from, new Map());
}

if (process.argv.includes('--graph'))
  for (const [from, edges] of [...graph].sort())
    console.log(`${from} -> ${[...edges.keys()].sort().join(', ')}`);

const cycleFindings = cycles(graph).map((component) => {
  const inside = new Set(component);
  const edges = component.flatMap((v) =>
    [...graph.get(v)].filter(([w]) => inside.has(w)).map(([w, sites]) => `    ${v} -> ${w}  (${sites[0]})`),
  );
  return `${component.join(' <-> ')}\n${edges.join('\n')}`;
});

const report = (title, findings) => {
  if (!findings.length) return;
  console.log(`\n${title} (${findings.length}):`);
  for (const finding of findings) console.log(`  ${finding}`);
};
report('a. SQL outside repository files and db/', sqlFindings);
report('b. import cycles between server folders', cycleFindings);
report('c. HTTP statuses outside src/http (raise a Refusal of a kind instead)', statusFindings);
report('d. device-side (unscoped) repository methods called outside the device side', panelFindings);

const total = sqlFindings.length + cycleFindings.length + statusFindings.length + panelFindings.length;
console.log(
  `architecture check: ${total === 0 ? 'ok' : 'FAILED'}: ${files.length} files, ${graph.size} folders; ` +
    `${sqlFindings.length} SQL sites outside repositories, ${cycleFindings.length} import cycles, ` +
    `${statusFindings.length} HTTP statuses outside src/http, ` +
    `${panelFindings.length} device-side calls outside the device side`,
);
process.exit(total === 0 ? 0 : 1);
