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
fs.rmSync(vitestJson, { force: true });
for (const n of [1, 2]) fs.rmSync(path.join(out, `e2e-${n}.json`), { force: true });

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

/**
 * The browser suite in two shards side by side, each with its own three servers (ports from
 * E2E_PORT_BASE, data folders of their own), results folder and JSON report: the tests mostly wait
 * (on timers, panels, rollouts), so two at a time take little more CPU than one and about half the
 * time. TEST_SEQUENTIAL=1 runs one shard.
 */
const E2E_SHARDS = sequential ? 1 : 2;
const shardJson = (n) => path.join(out, `e2e-${n}.json`);

async function browserSuite() {
  const buildExit = await run('console build', 'npm', ['run', 'build:web']);
  if (buildExit !== 0) return { buildExit };
  const shards = Array.from({ length: E2E_SHARDS }, (_, i) => i + 1);
  const exits = await Promise.all(
    shards.map((n) =>
      run(
        `end-to-end tests in Chromium, shard ${n} of ${E2E_SHARDS}`,
        'npx',
        [
          'playwright',
          'test',
          '-c',
          'e2e/playwright.config.ts',
          '--reporter=list,json',
          `--shard=${n}/${E2E_SHARDS}`,
          `--output=e2e/test-results/shard-${n}`,
        ],
        {
          env: { PLAYWRIGHT_JSON_OUTPUT_NAME: shardJson(n), E2E_PORT_BASE: String(18181 + 100 * (n - 1)) },
          // Shard 1 prints as it goes; the others' output follows when they end.
          ...(n === 1 ? {} : { logFile: path.join(out, `e2e-${n}.log`) }),
        },
      ),
    ),
  );
  for (const n of shards.slice(1)) {
    console.log(`\n=== end-to-end tests, shard ${n}, its output:`);
    process.stdout.write(fs.readFileSync(path.join(out, `e2e-${n}.log`), 'utf8'));
  }
  return { buildExit, e2eExits: exits, shards };
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
  for (const [i, n] of browser.shards.entries()) {
    const e2e = readJson(shardJson(n));
    if (e2e) {
      passed += e2e.stats.expected + (e2e.stats.flaky ?? 0);
      failed += e2e.stats.unexpected;
      if (e2e.stats.expected + e2e.stats.unexpected === 0) problems.push(`playwright shard ${n} ran no test`);
    }
    if (browser.e2eExits[i] !== 0 && (!e2e || e2e.stats.unexpected === 0))
      problems.push(`playwright shard ${n} exited ${browser.e2eExits[i]}`);
  }
}

for (const problem of problems) console.error(`problem: ${problem}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || problems.length > 0 ? 1 : 0);
