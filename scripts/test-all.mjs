// Runs every suite (unit + API on SQLite and, with TEST_DATABASE_URL, PostgreSQL; then the
// console build and Playwright e2e in Chromium) and ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.tmp');
fs.mkdirSync(out, { recursive: true });

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`could not read ${file}: ${error.message}`);
    return undefined;
  }
}

let passed = 0;
let failed = 0;
const problems = [];

if (!process.env.TEST_DATABASE_URL)
  console.log('TEST_DATABASE_URL is not set: the API suite runs on SQLite only.');

const vitestJson = path.join(out, 'vitest.json');
fs.rmSync(vitestJson, { force: true });
const vitestExit = run('unit and API tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
const vitest = readJson(vitestJson);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  if (vitest.numTotalTests === 0) problems.push('vitest ran no test');
}
if (vitestExit !== 0 && (!vitest || vitest.numFailedTests === 0))
  problems.push(`vitest exited ${vitestExit}`);

const buildExit = run('console build', 'npm', ['run', 'build:web']);
if (buildExit !== 0) problems.push('the console did not build');
else {
  const e2eJson = path.join(out, 'e2e.json');
  fs.rmSync(e2eJson, { force: true });
  const e2eExit = run(
    'end-to-end tests in Chromium',
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson,
    },
  );
  const e2e = readJson(e2eJson);
  if (e2e) {
    passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
    failed += e2e.stats.unexpected;
    if (e2e.stats.expected + e2e.stats.unexpected === 0) problems.push('playwright ran no test');
  }
  if (e2eExit !== 0 && (!e2e || e2e.stats.unexpected === 0)) problems.push(`playwright exited ${e2eExit}`);
}

for (const problem of problems) console.error(`problem: ${problem}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || problems.length > 0 ? 1 : 0);
