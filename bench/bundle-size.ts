/**
 * `npm run bench:bundle`: everything the console's sign-in page loads before it shows, counted in
 * Debian's Chromium (bench/lib/first-screen.ts): every script and style fetched until the sign-in
 * form is visible, lazy chunks and the language's strings included, gzipped at level 9. The
 * server is the real one (its own process) serving the built console (`npm run build:web` first).
 * Baseline in the same run: React + ReactDOM production builds alone. Exits 1 over the budget.
 */
import { fmt, loadAverage, runBenchmark, startServer } from './lib/harness.js';
import { FIRST_SCREEN_BUDGET_KB, measureFirstScreen, reactBytes } from './lib/first-screen.js';

runBenchmark('bench:bundle', 180_000, async () => {
  const server = await startServer();
  const screen = await measureFirstScreen(server.url);
  await server.stop();
  const kb = (bytes: number) => bytes / 1024;
  console.log('fetched before the sign-in form showed (gzipped):');
  for (const file of [...screen.files].sort((a, b) => b.gzipped - a.gzipped))
    console.log(`  ${file.kind.padEnd(6)} ${file.url.padEnd(56)} ${fmt(kb(file.gzipped), 1)} KB`);
  const scripts = screen.files.filter((f) => f.kind === 'script');
  const total = kb(screen.bytes);
  const react = kb(reactBytes());
  console.log(
    `\n${scripts.length} scripts and ${screen.files.length - scripts.length} styles: ${fmt(total, 1)} KB gzipped (budget ${FIRST_SCREEN_BUDGET_KB} KB)`,
  );
  console.log(`fetched after the form showed (not counted): ${screen.later}`);
  console.log(
    `baseline, React + ReactDOM alone: ${fmt(react, 1)} KB gzipped; ratio ${fmt(total / react, 2)}x`,
  );
  console.log(`load average: ${loadAverage()}`);
  if (total > FIRST_SCREEN_BUDGET_KB)
    throw new Error(`over the budget by ${fmt(total - FIRST_SCREEN_BUDGET_KB, 1)} KB`);
});
