/**
 * The guard's measuring: every hot path runs as rounds of PanelFleet's implementation ("ours") and
 * of a raw peer doing the same work, interleaved in the same run, so both see the same machine
 * and the same load. A round of ours is measured here, as this process's CPU across the call (the
 * server runs in this process), which is why a test can hand in a wrapped implementation. A peer
 * reports its own CPU (Mosquitto's or nginx's process, raw SQL timed in this process).
 * The figure of a path is the median over rounds of (our CPU per operation / the peer's).
 */
import { collectGarbage, ownCpuSeconds, type GeneratorShare } from '../lib/cpu.js';

export interface OursRound {
  /** Operations done in the round (reports, commands, connects, GiB, requests, rows). */
  ops: number;
  /** For a size path: the size itself (the runner measures CPU only for `kind: 'cpu'`). */
  size?: number;
  generator?: GeneratorShare;
}

export interface PeerRound {
  ops: number;
  /** CPU seconds of the peer for the round, or its size for a size path. */
  cost: number;
  generator?: GeneratorShare;
}

export interface HotPath<Context> {
  name: string;
  /** What one operation is, for the table ("report", "GiB", "request"). */
  unit: string;
  peerName: string;
  kind: 'cpu' | 'size';
  /** The largest ratio ours / peer that passes: the figure measured when set, times a margin for noise. */
  budget: number;
  /** A path whose figure does not vary (a size): measured in the first round only, without warm-up. */
  once?: boolean;

  /** Unmeasured work before a round of either side (e.g. moving the panels to the right broker). */
  prepare?(context: Context, side: 'ours' | 'peer'): Promise<void>;
  ours(context: Context): Promise<OursRound>;
  peer(context: Context): Promise<PeerRound>;
}

export interface PathResult {
  name: string;
  unit: string;
  peerName: string;
  kind: 'cpu' | 'size';
  budget: number;
  /** Our cost per operation in each round (CPU seconds, or size). */
  ours: number[];
  peers: number[];
  ratios: number[];
  ratio: number;
  passed: boolean;
  notes: string[];
}

export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function runOurs<C>(path: HotPath<C>, context: C) {
  await path.prepare?.(context, 'ours');
  collectGarbage();
  const cpu0 = ownCpuSeconds();
  const round = await path.ours(context);
  const cpu = ownCpuSeconds() - cpu0;
  if (round.ops <= 0) throw new Error(`${path.name}: a round of ours did no operation`);
  return { perOp: (path.kind === 'cpu' ? cpu : round.size!) / round.ops, generator: round.generator };
}

async function runPeer<C>(path: HotPath<C>, context: C) {
  await path.prepare?.(context, 'peer');
  collectGarbage();
  const round = await path.peer(context);
  if (round.ops <= 0 || round.cost <= 0)
    throw new Error(`${path.name}: a round of the peer measured nothing`);
  return { perOp: round.cost / round.ops, generator: round.generator };
}

/**
 * Measures the paths: one warm-up round of each side (JIT, caches, connections; not counted),
 * then `rounds` rounds in which every path's ours runs, then every path's peer.
 */
export async function measurePaths<C>(
  paths: Array<HotPath<C>>,
  context: C,
  rounds: number,
  log: (line: string) => void = () => undefined,
): Promise<PathResult[]> {
  const ours = paths.map(() => [] as number[]);
  const peers = paths.map(() => [] as number[]);
  const notes = paths.map(() => new Set<string>());
  const flag = (i: number, side: string, generator: GeneratorShare | undefined) => {
    if (generator?.saturated)
      notes[i]!.add(
        `${side}: the load generator saturated (${Math.round(generator.busiest * 100)}% of a core)`,
      );
  };
  for (let round = 0; round <= rounds; round++) {
    const counted = round > 0;
    const now = paths.map((path) => (path.once ? round === 1 : true));
    for (const [i, path] of paths.entries()) {
      if (!now[i]) continue;
      const result = await runOurs(path, context);
      if (counted) ours[i]!.push(result.perOp);
      flag(i, 'ours', result.generator);
    }
    for (const [i, path] of paths.entries()) {
      if (!now[i]) continue;
      const result = await runPeer(path, context);
      if (counted) peers[i]!.push(result.perOp);
      flag(i, 'peer', result.generator);
    }
    log(counted ? `round ${round} of ${rounds} measured` : 'warm-up round done');
  }
  return paths.map((path, i) => {
    const ratios = ours[i]!.map((value, r) => value / peers[i]![r]!);
    const ratio = median(ratios);
    return {
      name: path.name,
      unit: path.unit,
      peerName: path.peerName,
      kind: path.kind,
      budget: path.budget,
      ours: ours[i]!,
      peers: peers[i]!,
      ratios,
      ratio,
      passed: ratio <= path.budget,
      notes: [...notes[i]!],
    };
  });
}

function perOp(kind: 'cpu' | 'size', value: number) {
  if (kind === 'size') return `${(value / 1024).toFixed(1)} KB`;
  if (value >= 0.1) return `${value.toFixed(2)} s`;
  if (value >= 1e-3) return `${(value * 1e3).toFixed(2)} ms`;
  return `${(value * 1e6).toFixed(1)} µs`;
}

/** The guard's one table: hot path, our CPU/op, peer CPU/op, ratio (min-max over rounds), budget, verdict. */
export function formatTable(results: PathResult[]): string {
  const header = [
    'hot path (per op)',
    'ours / op',
    'peer / op',
    'ratio (rounds min-max)',
    'budget',
    'verdict',
  ];
  const rows = results.map((r) => [
    `${r.name} (${r.unit}; peer: ${r.peerName})`,
    perOp(r.kind, median(r.ours)),
    perOp(r.kind, median(r.peers)),
    `${r.ratio.toFixed(2)}x (${Math.min(...r.ratios).toFixed(2)}-${Math.max(...r.ratios).toFixed(2)})`,
    `${r.budget.toFixed(2)}x`,
    r.passed ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ');
  const notes = results.flatMap((r) => r.notes.map((note) => `  note, ${r.name}: ${note}`));
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line), ...notes].join('\n');
}
