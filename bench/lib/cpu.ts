/**
 * CPU time of both sides of a benchmark: this process (process.cpuUsage, every thread, in
 * microseconds) and other processes (/proc/<pid>/task/<tid>/schedstat, nanoseconds, summed over
 * the process's threads; /proc/<pid>/stat's 10 ms ticks as the fallback), and how busy a load
 * generator was, so that a run where the generator saturated first is flagged instead of read as
 * the server's figure.
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { cpuSeconds } from './harness.js';

/**
 * CPU seconds (user + system, all threads) this process has used so far. Only the sum: the kernel
 * splits it into user and system time by sampling, and the split alone swung by 25 % between
 * rounds of the same download.
 */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function schedstatSeconds(pid: number): number | undefined {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let ns = 0;
  for (const tid of tasks) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read: its time is gone from both readings.
    }
  }
  return ns / 1e9;
}

/**
 * CPU seconds another process has used so far. Nanosecond resolution from the scheduler's
 * statistics of its live threads (exact for the single-threaded Mosquitto and nginx worker); a
 * Node process's finished threads are not in it, so use the harness's `cpuSeconds` for those.
 */
export function threadsCpuSeconds(pid: number): number {
  return schedstatSeconds(pid) ?? cpuSeconds(pid);
}

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * A full garbage collection now, before a measured round, so that the round is not charged with
 * collecting what earlier work left behind.
 */
export function collectGarbage() {
  gc();
}

/** Spins until this process has used `seconds` more CPU (a deliberate slowdown for the guard's own test). */
export function burnCpu(seconds: number) {
  const until = ownCpuSeconds() + seconds;
  let x = 0;
  while (ownCpuSeconds() < until) for (let i = 0; i < 10_000; i++) x = (x * 31 + i) % 1_000_003;
  return x;
}

/** The children of a process (e.g. nginx's master -> its worker), from /proc. */
export function childPids(parent: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A load generator's busiest process, as a share of one core over `wallSeconds`. */
export interface GeneratorShare {
  /** CPU seconds of all generator processes together. */
  cpu: number;
  /** The busiest generator process's CPU / wall time (1 = a whole core). */
  busiest: number;
  /** True when the busiest process used 85% of a core or more: then it, not the server, set the pace. */
  saturated: boolean;
}

export const GENERATOR_SATURATED = 0.85;

export function generatorShare(cpuPerProcess: number[], wallSeconds: number): GeneratorShare {
  const busiest = Math.max(0, ...cpuPerProcess) / Math.max(wallSeconds, 1e-9);
  return {
    cpu: cpuPerProcess.reduce((a, b) => a + b, 0),
    busiest,
    saturated: busiest >= GENERATOR_SATURATED,
  };
}

/** CPU readings of several processes at once, for a before/after difference. */
export function readAll(pids: number[], read: (pid: number) => number = cpuSeconds): number[] {
  return pids.map((pid) => read(pid));
}

/** The generator's share over a window, from readings before and after it. */
export function shareBetween(before: number[], after: number[], wallSeconds: number): GeneratorShare {
  return generatorShare(
    after.map((value, i) => value - before[i]!),
    wallSeconds,
  );
}

/** "12.3 s CPU, busiest generator process 48% of a core" plus a warning when it saturated. */
export function describeGenerator(share: GeneratorShare) {
  const text = `generator CPU ${share.cpu.toFixed(2)} s, busiest process ${Math.round(share.busiest * 100)}% of a core`;
  return share.saturated
    ? `${text} — GENERATOR SATURATED: the figure is the generator's, not the server's`
    : text;
}
