// The console's initial JavaScript: every script and modulepreload that dist/index.html loads
// before the first screen, gzipped (level 9, as a server would send it). Lazy chunks are listed
// apart. Baseline in the same run: React + ReactDOM alone, the least any React console ships.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 300;
const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [
  ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g),
].map((m) => m[1]);
const gz = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;

let initialKb = 0;
console.log('initial JavaScript (gzipped):');
for (const src of initial) {
  const kb = gz(path.join(dist, src.replace(/^\//, '')));
  initialKb += kb;
  console.log(`  ${src.padEnd(48)} ${kb.toFixed(1)} KB`);
}
const assets = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const lazy = assets.filter((f) => !initial.some((src) => src.endsWith(f)));
const lazyKb = lazy.reduce((sum, f) => sum + gz(path.join(dist, 'assets', f)), 0);

// The first screen also waits for the strings of the user's language (the console's and the
// contract's catalogs in one chunk, apps/web/src/i18n/strings.<language>.ts): the larger
// language counts as initial.
const stringsOf = (language) => lazy.filter((f) => f.startsWith(`strings.${language}-`));
const stringsKb = Math.max(
  ...['zh-CN', 'en-US'].map((language) =>
    stringsOf(language).reduce((sum, f) => sum + gz(path.join(dist, 'assets', f)), 0),
  ),
);
console.log(
  `  strings of one language (the larger, ${stringsOf('zh-CN').length} chunks)`.padEnd(51) +
    `${stringsKb.toFixed(1)} KB`,
);
initialKb += stringsKb;

const require = (await import('node:module')).createRequire(import.meta.url);
const packageDir = (name) => path.dirname(require.resolve(`${name}/package.json`));
const reactKb = [
  ['react', 'cjs/react.production.js'],
  ['react-dom', 'cjs/react-dom.production.js'],
  ['react-dom', 'cjs/react-dom-client.production.js'],
]
  .map(([name, file]) => gz(path.join(packageDir(name), file)))
  .reduce((a, b) => a + b, 0);

console.log(`initial total: ${initialKb.toFixed(1)} KB gzipped (budget ${BUDGET_KB} KB)`);
console.log(`lazy chunks: ${lazy.length}, ${lazyKb.toFixed(1)} KB gzipped in all`);
console.log(
  `baseline, React + ReactDOM alone: ${reactKb.toFixed(1)} KB gzipped; ratio ${(initialKb / reactKb).toFixed(2)}x`,
);
if (initialKb > BUDGET_KB) {
  console.error(`over budget by ${(initialKb - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}
