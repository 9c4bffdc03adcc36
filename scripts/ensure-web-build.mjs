// Builds the console (`npm run build:web`) when apps/web/dist is missing or older than any of its
// sources (the console's own files and the contract it is typed and validated by). `npm start`
// and `npm run demo` run it first, so a fresh clone and an edited one both serve a current console.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'apps/web/dist/index.html');
const SOURCES = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/contract/src',
  'package-lock.json',
];

function newest(file) {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
const changedAt = Math.max(...SOURCES.map((s) => newest(path.join(root, s))));
if (builtAt === 0) console.log('The console is not built yet: building it (about a minute)…');
else if (changedAt > builtAt) console.log('The console changed since its last build: building it…');
if (builtAt === 0 || changedAt > builtAt) execSync('npm run build:web', { cwd: root, stdio: 'inherit' });
