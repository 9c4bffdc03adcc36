/**
 * `npm run bench:guard` (run by .ci/run): the hot paths' CPU per operation against raw peers in the
 * same run, one table, exit 1 when a ratio passes its budget. GUARD_ROUNDS (5) rounds after a
 * warm-up; GUARD_PATHS (comma-separated names) measures some paths only.
 */
import { cleanup, loadAverage, machineDescription, runBenchmark } from './lib/harness.js';
import { FIRST_SCREEN_BUDGET_KB, formatTable, runGuard } from './guard/run.js';

runBenchmark('bench:guard', 900_000, async () => {
  const started = performance.now();
  const loads = [loadAverage()];
  console.log(`bench:guard on ${machineDescription()}; load average ${loads[0]}`);
  const results = await runGuard({
    rounds: Number(process.env.GUARD_ROUNDS ?? 5),
    ...(process.env.GUARD_PATHS ? { names: process.env.GUARD_PATHS.split(',') } : {}),
    log: (line) => console.log(`  ${line} (${Math.round((performance.now() - started) / 1000)} s)`),
  });
  loads.push(loadAverage());
  console.log(`\n${formatTable(results)}`);
  // The guard's budget is against regressions; the design's budget is the benchmarks' goal.
  const screen = results.find((r) => r.name === 'first screen');
  if (screen) {
    const kb = screen.ours[0]! / 1024;
    const verdict = kb > FIRST_SCREEN_BUDGET_KB ? 'over' : 'within';
    console.log(
      `first screen: ${kb.toFixed(1)} KB, ${verdict} the design's budget of ${FIRST_SCREEN_BUDGET_KB} KB (docs/benchmarks.md)`,
    );
  }
  // One line per path for collecting runs: name, ratio, every round's ratio.
  for (const r of results)
    console.log(
      `guard-ratio ${JSON.stringify({ path: r.name, ratio: r.ratio, rounds: r.ratios, ours: r.ours, peers: r.peers })}`,
    );
  const failed = results.filter((r) => !r.passed);
  console.log(
    `\nload average (1, 5, 15 min) at start / end: ${loads.join(' / ')}; ${Math.round((performance.now() - started) / 1000)} s`,
  );
  if (failed.length) {
    console.error(`bench:guard: ${failed.map((r) => r.name).join(', ')} over budget`);
    await cleanup();
    process.exit(1);
  }
  console.log('bench:guard: every hot path within its budget');
});
