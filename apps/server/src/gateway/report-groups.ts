import type { Updateable } from 'kysely';
import type { DevicesTable } from '../db/schema.js';

/**
 * The device columns a state report may write, in groups of fields a panel reports together
 * (protocol: a full report, then partial ones on change). Each group keeps the time of the report
 * that last wrote it (`<group>_reported_at`, migration 028, on the server's clock), and a report
 * writes a group only when it was not made before that: reports that reach the database out of
 * order (two instances, a lookup that waited) leave each group at its newest report.
 */
export const REPORT_GROUPS = {
  network: ['public_ip', 'local_ip', 'netmask', 'mac', 'network_intensity', 'network_state'],
  identity: ['model', 'machine_type', 'ota_version'],
  position: ['latitude', 'longitude'],
  telemetry: ['ram_total', 'ram_used', 'cpu_temperature'],
  apk: ['apk_current', 'apk_total'],
  ota: ['ota_current', 'ota_total'],
  brightness: ['brightness'],
  sound: ['volume', 'mute'],
  source: ['source'],
  power: ['power'],
  clock: ['utc_offset'],
} as const satisfies Record<string, ReadonlyArray<keyof DevicesTable>>;

export type ReportGroup = keyof typeof REPORT_GROUPS;
export type ReportColumn = (typeof REPORT_GROUPS)[ReportGroup][number];
export type ReportValues = Pick<Updateable<DevicesTable>, ReportColumn>;

/** The column holding the time of the report that last wrote a group. */
export const reportedAtColumn = (group: ReportGroup) => `${group}_reported_at` as const;

const GROUP_OF = new Map<string, ReportGroup>(
  Object.entries(REPORT_GROUPS).flatMap(([group, columns]) =>
    columns.map((column) => [column, group as ReportGroup]),
  ),
);

/** When a report was received and, if the panel sent them, its uptime and its wall clock. */
export interface ReportTiming {
  /** The server's clock when the message arrived, before any lookup or wait. */
  receivedAt: number;
  /** Milliseconds since the panel booted (protocol 5.1 `uptimeMs`): orders the reports of one boot. */
  uptimeMs?: number | undefined;
  /** The panel's own wall clock (`ts`): kept as its clock offset, never used for ordering. */
  ts?: number | undefined;
  /** Place the panel's boot on the row (false: this instance wrote the same boot lately). Default true. */
  anchorsBoot?: boolean;
  /** Write the panel's clock offset (false: this instance wrote about the same lately). Default true. */
  keepsClock?: boolean;
  /** The panel came online or went offline (kept in its history, not on its row). */
  presence?: { online: boolean; reason: PresenceReason };
}

/**
 * Why a panel's presence changed: it connected, closed its connection, its keepalive lapsed, or the
 * instance whose embedded broker held its connection died (written by another instance).
 */
export type PresenceReason = 'connected' | 'disconnected' | 'keepalive' | 'instanceLost';

/** A change of a panel's presence, on the server's clock. */
export interface PresenceChange {
  at: number;
  online: boolean;
  reason: PresenceReason;
}

/**
 * How far apart the boot times two reports imply (receive time minus uptime) may lie and still be
 * one boot: it absorbs the reports' transit times, and is shorter than a panel's reboot.
 */
export const BOOT_TOLERANCE_MS = 10_000;

/** A group's values from one report (or several merged) and when that report was received. */
export interface GroupWrite {
  at: number;
  uptimeMs?: number;
  set: ReportValues;
}

/** What waits to be written for one panel: the newest values of each group, and when it was last heard. */
export interface PanelState {
  id: number;
  /** Receive time of the newest message; `last_seen_at` only moves forward. */
  seenAt: number;
  groups: Partial<Record<ReportGroup, GroupWrite>>;
  /** The newest report that carried the panel's uptime: where its current boot lies on the server's clock. */
  boot?: { at: number; uptimeMs: number };
  /** The newest report that carried the panel's wall clock: how far that clock is off the server's. */
  clock?: { at: number; offsetMs: number };
  /** Presence changes since the last write, oldest first (each one a history row). */
  presence?: PresenceChange[];
}

/** Where a report places the panel's boot on the server's clock. */
export const bootTimeOf = (report: { at: number; uptimeMs: number }) => report.at - report.uptimeMs;

/**
 * Whether `candidate` was made after (or with) `held`, both reports of one panel: by uptime within
 * one boot (no clock change touches it, and a report keeps it however late it arrives), else by
 * the server's receive time (across reboots, and for panels that send no uptime). The panel's wall
 * clock plays no part, so a clock that jumps back never holds a report back.
 */
export function madeAfter(candidate: Omit<GroupWrite, 'set'>, held: Omit<GroupWrite, 'set'>): boolean {
  const [a, b] = [candidate.uptimeMs, held.uptimeMs];
  if (
    a !== undefined &&
    b !== undefined &&
    Math.abs(bootTimeOf({ at: candidate.at, uptimeMs: a }) - bootTimeOf({ at: held.at, uptimeMs: b })) <=
      BOOT_TOLERANCE_MS
  )
    return a >= b;
  return candidate.at >= held.at;
}

/** One report's columns (absent fields absent) as a panel state, split into its groups. */
export function panelState(id: number, values: ReportValues, timing: ReportTiming): PanelState {
  const { receivedAt: at, uptimeMs, ts, anchorsBoot = true, keepsClock = true, presence } = timing;
  const groups: PanelState['groups'] = {};
  for (const [column, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const group = GROUP_OF.get(column);
    if (!group) throw new Error(`not a report column: ${column}`);
    const write = (groups[group] ??= uptimeMs === undefined ? { at, set: {} } : { at, uptimeMs, set: {} });
    (write.set as Record<string, unknown>)[column] = value;
  }
  return {
    id,
    seenAt: at,
    groups,
    ...(uptimeMs !== undefined && anchorsBoot ? { boot: { at, uptimeMs } } : {}),
    ...(ts !== undefined && keepsClock ? { clock: { at, offsetMs: ts - at } } : {}),
    ...(presence ? { presence: [{ at, ...presence }] } : {}),
  };
}

/** The later of two optional facts by receive time (the second on a tie). */
function later<T extends { at: number }>(a: T | undefined, b: T | undefined): T | undefined {
  if (!a || !b) return a ?? b;
  return b.at >= a.at ? b : a;
}

/**
 * Two states of one panel as one, whichever came first: per group, the newer report's values win
 * and the fields only the older one carried are kept (in memory the order is known field by
 * field; the database keeps only a time per group). A report superseded this way costs nothing
 * while it waits.
 */
export function mergePanelStates(a: PanelState, b: PanelState): PanelState {
  const groups: PanelState['groups'] = { ...a.groups };
  for (const [group, write] of Object.entries(b.groups) as Array<[ReportGroup, GroupWrite]>) {
    const held = groups[group];
    if (!held) groups[group] = write;
    else if (madeAfter(write, held)) groups[group] = { ...write, set: { ...held.set, ...write.set } };
    else groups[group] = { ...held, set: { ...write.set, ...held.set } };
  }
  const boot = later(a.boot, b.boot);
  const clock = later(a.clock, b.clock);
  const presence = [...(a.presence ?? []), ...(b.presence ?? [])].sort((x, y) => x.at - y.at);
  return {
    id: a.id,
    seenAt: Math.max(a.seenAt, b.seenAt),
    groups,
    ...(boot ? { boot } : {}),
    ...(clock ? { clock } : {}),
    ...(presence.length ? { presence } : {}),
  };
}
