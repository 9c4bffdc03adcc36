// Runs every suite (unit + API on SQLite and, with TEST_DATABASE_URL, PostgreSQL; then the
// console build and Playwright e2e in Chromium) and ends with one line: `N passed, N failed`.
//
// The two halves run side by side: the Vitest suite mostly waits (on databases, brokers and
// timers), and so does the browser suite, so overlapping them keeps CI well under 30 minutes on
// two cores. Vitest then gets one worker, leaving the other core to the servers and Chromium, and
// its output is printed when it ends instead of interleaved with Playwright's.
// TEST_SEQUENTIAL=1 runs them one after the other, with Vitest's default workers.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrerequisites } from './prerequisites.mjs';

// Before anything else: a missing browser, font or broker is named here, not deep in a suite.
if (!ensurePrerequisites()) process.exit(1);

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, '.tmp');
fs.mkdirSync(out, { recursive: true });
const sequential = process.env.TEST_SEQUENTIAL === '1';

/** Runs a command to its end; with `logFile`, its output goes there instead of the terminal. */
function run(title, command, args, { env = {}, logFile } = {}) {
  const started = Date.now();
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}${logFile ? ` (output in ${logFile})` : ''}`);
  const log = logFile ? fs.openSync(logFile, 'w') : undefined;
  const child = spawn(command, args, {
    cwd: root,
    stdio: log === undefined ? 'inherit' : ['ignore', log, log],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`${title}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code) => {
      if (log !== undefined) fs.closeSync(log);
      console.log(`=== ${title} ended (exit ${code}) after ${Math.round((Date.now() - started) / 1000)} s`);
      resolve(code ?? 1);
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    console.error(`could not read ${file}: ${error.message}`);
    return undefined;
  }
}

if (!process.env.TEST_DATABASE_URL)
  console.log('TEST_DATABASE_URL is not set: the API suite runs on SQLite only.');

const vitestJson = path.join(out, 'vitest.json');
const vitestLog = path.join(out, 'vitest.log');
const e2eJson = path.join(out, 'e2e.json');
fs.rmSync(vitestJson, { force: true });
fs.rmSync(e2eJson, { force: true });

function vitestSuite() {
  return run(
    'unit and API tests',
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestJson}`,
      ...(sequential ? [] : ['--maxWorkers=1']),
    ],
    sequential ? {} : { logFile: vitestLog },
  );
}

async function browserSuite() {
  const buildExit = await run('console build', 'npm', ['run', 'build:web']);
  if (buildExit !== 0) return { buildExit };
  const e2eExit = await run(
    'end-to-end tests in Chromium',
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson } },
  );
  return { buildExit, e2eExit };
}

let vitestExit;
let browser;
if (sequential) {
  vitestExit = await vitestSuite();
  browser = await browserSuite();
} else {
  [vitestExit, browser] = await Promise.all([vitestSuite(), browserSuite()]);
  console.log(`\n=== unit and API tests, their output:`);
  process.stdout.write(fs.readFileSync(vitestLog, 'utf8'));
}

let passed = 0;
let failed = 0;
const problems = [];

const vitest = readJson(vitestJson);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  if (vitest.numTotalTests === 0) problems.push('vitest ran no test');
}
if (vitestExit !== 0 && (!vitest || vitest.numFailedTests === 0))
  problems.push(`vitest exited ${vitestExit}`);

if (browser.buildExit !== 0) problems.push('the console did not build');
else {
  const e2e = readJson(e2eJson);
  if (e2e) {
    passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
    failed += e2e.stats.unexpected;
    if (e2e.stats.expected + e2e.stats.unexpected === 0) problems.push('playwright ran no test');
  }
  if (browser.e2eExit !== 0 && (!e2e || e2e.stats.unexpected === 0))
    problems.push(`playwright exited ${browser.e2eExit}`);
}

for (const problem of problems) console.error(`problem: ${problem}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || problems.length > 0 ? 1 : 0);
