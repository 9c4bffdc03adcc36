/**
 * The guard's own test: it passes the hot paths as they are, and fails them when each does twice
 * the CPU work (a wrapper handed in as the implementation; nothing in the server can be slowed).
 * The runs are small (3 or 5 rounds of two paths) but use the guard's own workloads and budgets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { burnCpu, ownCpuSeconds } from '../lib/cpu.js';
import { cleanup } from '../lib/harness.js';
import type { HotPath } from './measure.js';
import { prepareGuard, runGuard, type GuardContext } from './run.js';

/** The same path doing twice the work: each round of ours burns again the CPU it just used. */
function doubled(path: HotPath<GuardContext>): HotPath<GuardContext> {
  return {
    ...path,
    async ours(context) {
      const cpu0 = ownCpuSeconds();
      const round = await path.ours(context);
      burnCpu(ownCpuSeconds() - cpu0);
      return round;
    },
  };
}

// One path driven by another process over MQTT, one answered in this process (a request).
const names = ['state ingest', 'device list'];
// On a machine shared with other test runs a round can take a minute.
const LIMIT_MS = 600_000;

describe('bench:guard', () => {
  let context: GuardContext;
  beforeAll(async () => {
    context = await prepareGuard();
  }, LIMIT_MS);
  afterAll(() => cleanup(), 60_000);

  it(
    'passes the hot paths as they are',
    async () => {
      const results = await runGuard({ names, rounds: 3, context });
      expect(results.map((r) => [r.name, r.passed])).toEqual(names.map((name) => [name, true]));
    },
    LIMIT_MS,
  );

  it(
    'fails a hot path that does twice the work',
    async () => {
      // Five rounds: background work of the process (timers, the collector) adds the same CPU to
      // both sides of a round and so pulls a ratio towards 1; a median of five outlasts a bad round.
      const results = await runGuard({ names, rounds: 5, context, change: doubled });
      expect(results.map((r) => [r.name, r.passed])).toEqual(names.map((name) => [name, false]));
    },
    LIMIT_MS,
  );
});
