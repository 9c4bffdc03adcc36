import { comparePositions, START, type Position } from './list-position.js';
import type { Anchor, DeviceListRepository, OrderChange } from './list-repository.js';

export interface OrderIndexOptions {
  /** One anchor every `stride` devices: a seek skips fewer than about this many index entries. */
  stride: number;
  /** Changes since the build after which a fresh build is started in the background. */
  rebuildAfterChanges: number;
  /** Newest change-log rows kept per organisation (other instances' indexes catch up from them). */
  keepChanges: number;
  /** A seek or rank that had to scan more index entries than this starts a background rebuild. */
  driftLimit: number;
  /** How often, at most, the change log of one organisation is trimmed. */
  pruneEveryMs: number;
}

export const DEFAULT_ORDER_INDEX: OrderIndexOptions = {
  stride: 1024,
  rebuildAfterChanges: 20_000,
  keepChanges: 100_000,
  driftLimit: 4096,
  pruneEveryMs: 60_000,
};

interface OrgIndex {
  builtVersion: number;
  /** anchors[0] is START (rank 0); then every stride-th position at the build. */
  anchors: Anchor[];
  /** Changes after the build, in version order. */
  changes: OrderChange[];
  seenVersion: number;
  /** The anchors' ranks now: rank at the build plus the changes before them. */
  ranks: number[];
}

/** Ranks of the anchors after applying the changes (one sweep over both in position order). */
function correctedRanks(anchors: Anchor[], changes: OrderChange[]): number[] {
  const sorted = [...changes].sort(comparePositions);
  let next = 0;
  let shift = 0;
  return anchors.map((anchor) => {
    while (next < sorted.length && comparePositions(sorted[next]!, anchor) < 0)
      shift += sorted[next++]!.delta;
    return anchor.rank + shift;
  });
}

/** The last index i with value(i) <= target in an ascending sequence (0 when none is larger than the first). */
function lastAtOrBefore(count: number, atOrBefore: (i: number) => boolean): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (atOrBefore(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A sparse rank index over one organisation's device order, kept per server process: anchors
 * (every `stride`-th position with its rank) built in one snapshot, then corrected by the
 * database's change log instead of being rebuilt on every enrollment or rename. It answers
 * "how many devices lie before this position" and "where does the device of rank r sit"
 * with one bounded index scan, so page N of a million devices needs no deep OFFSET.
 */
export class DeviceOrderIndex {
  private readonly orgs = new Map<number, OrgIndex>();
  private readonly pending = new Map<number, Promise<OrgIndex>>();
  private readonly rebuilding = new Set<number>();
  /** Per organisation: the version and time of this process's last trim of the change log. */
  private readonly trimmed = new Map<number, { version: number; at: number }>();
  private readonly pruning = new Set<number>();

  constructor(
    private readonly repository: DeviceListRepository,
    private readonly options: OrderIndexOptions = DEFAULT_ORDER_INDEX,
    private readonly onBackgroundError: (err: unknown) => void = () => undefined,
  ) {}

  /**
   * Told the current version on every list read: trims the change log to its newest
   * `keepChanges` rows (in the background, in chunks, at most every `pruneEveryMs`), whether or
   * not this process ever builds an index. An index that needed a trimmed change rebuilds.
   */
  observe(orgId: number, version: number) {
    const last = this.trimmed.get(orgId);
    if (
      this.pruning.has(orgId) ||
      (last && (last.version === version || Date.now() - last.at < this.options.pruneEveryMs))
    )
      return;
    this.pruning.add(orgId);
    this.trimmed.set(orgId, { version, at: Date.now() });
    this.repository
      .trimChanges(orgId, this.options.keepChanges)
      .catch(this.onBackgroundError)
      .finally(() => this.pruning.delete(orgId));
  }

  /** Devices strictly before `position` now. */
  async rankOf(orgId: number, version: number, position: Position): Promise<number> {
    const index = await this.at(orgId, version);
    const i = lastAtOrBefore(index.anchors.length, (k) => comparePositions(index.anchors[k]!, position) <= 0);
    const between = await this.repository.countUpTo(
      orgId,
      { at: index.anchors[i]!, inclusive: true },
      { at: position, inclusive: false },
      Number.MAX_SAFE_INTEGER,
    );
    this.rebuildIfDrifted(orgId, between);
    return index.ranks[i]! + between;
  }

  /** The device of rank `rank` is the `skip`-th (0-based) at or after `from`. */
  async seek(orgId: number, version: number, rank: number): Promise<{ from: Position; skip: number }> {
    const index = await this.at(orgId, version);
    const i = lastAtOrBefore(index.anchors.length, (k) => index.ranks[k]! <= rank);
    const skip = rank - index.ranks[i]!;
    this.rebuildIfDrifted(orgId, skip);
    return { from: index.anchors[i]!, skip };
  }

  /** The index brought up to at least `version` (one caller at a time per organisation). */
  private at(orgId: number, version: number): Promise<OrgIndex> {
    const previous = this.pending.get(orgId) ?? Promise.resolve(undefined);
    // A failure of the previous caller was reported to that caller; it must not block this one.
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const index = this.orgs.get(orgId);
        if (!index) return this.build(orgId);
        if (version <= index.seenVersion) return index;
        return this.catchUp(orgId, index);
      });
    this.pending.set(orgId, next);
    // The rejection, if any, reaches the caller through `next`; this branch only tidies up.
    void next
      .finally(() => {
        if (this.pending.get(orgId) === next) this.pending.delete(orgId);
      })
      .catch(() => undefined);
    return next;
  }

  private async catchUp(orgId: number, index: OrgIndex): Promise<OrgIndex> {
    const limit = this.options.rebuildAfterChanges;
    const fresh = await this.repository.changesSince(orgId, index.seenVersion, limit + 1);
    // Versions are consecutive; a hole means the log was trimmed past this build, and a flood
    // (a bulk import) is cheaper to read as a new build than as corrections.
    if (!fresh.length || fresh[0]!.version !== index.seenVersion + 1 || fresh.length > limit)
      return this.build(orgId);
    index.changes.push(...fresh);
    index.seenVersion = fresh.at(-1)!.version;
    index.ranks = correctedRanks(index.anchors, index.changes);
    if (index.changes.length > this.options.rebuildAfterChanges) this.rebuildInBackground(orgId);
    return index;
  }

  private async build(orgId: number): Promise<OrgIndex> {
    const built = await this.repository.buildAnchors(orgId, this.options.stride);
    const anchors = [{ ...START, rank: 0 }, ...built.anchors];
    const index: OrgIndex = {
      builtVersion: built.version,
      anchors,
      changes: [],
      seenVersion: built.version,
      ranks: anchors.map((a) => a.rank),
    };
    this.orgs.set(orgId, index);
    return index;
  }

  private rebuildIfDrifted(orgId: number, scanned: number) {
    if (scanned > this.options.driftLimit) this.rebuildInBackground(orgId);
  }

  /** Builds anew while the current index keeps answering; the new one replaces it when ready. */
  private rebuildInBackground(orgId: number) {
    if (this.rebuilding.has(orgId)) return;
    this.rebuilding.add(orgId);
    this.repository
      .buildAnchors(orgId, this.options.stride)
      .then(async (built) => {
        const current = this.orgs.get(orgId);
        if (current && current.builtVersion >= built.version) return;
        const anchors = [{ ...START, rank: 0 }, ...built.anchors];
        // Changes the new build has not seen stay as its corrections.
        const later = current ? current.changes.filter((c) => c.version > built.version) : [];
        this.orgs.set(orgId, {
          builtVersion: built.version,
          anchors,
          changes: later,
          seenVersion: Math.max(built.version, current?.seenVersion ?? 0),
          ranks: correctedRanks(anchors, later),
        });
      })
      .catch(this.onBackgroundError)
      .finally(() => this.rebuilding.delete(orgId));
  }
}
