import type { Updateable } from 'kysely';
import type { DevicesTable } from '../db/schema.js';

/**
 * The device columns a state report may write, in groups of fields a panel reports together
 * (protocol: a full report, then partial ones on change). Each group keeps the time of the report
 * that last wrote it (`<group>_reported_at`, migration 028), and a report writes a group only
 * when it is not older than that: reports that reach the database out of order (two instances,
 * a lookup that waited) leave each group at its newest report.
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

/** A group's values from one report (or several merged) and the time they were reported. */
export interface GroupWrite {
  at: number;
  set: ReportValues;
}

/** What waits to be written for one panel: the newest values of each group, and when it was last heard. */
export interface PanelState {
  id: number;
  /** Receive time of the newest message; `last_seen_at` only moves forward. */
  seenAt: number;
  groups: Partial<Record<ReportGroup, GroupWrite>>;
}

/**
 * How far a report's own time (`ts`, the panel's clock) may lie behind its receive time and still
 * order it; a panel clock that is further behind, or ahead, counts as the receive time. It bounds
 * the harm of a wrong panel clock: reports with and without `ts` are compared on one time line.
 */
export const REPORT_TIME_TOLERANCE_MS = 60_000;

/** The time that orders a report: the panel's `ts` when plausible, else when it was received. */
export function reportTime(ts: number | undefined, receivedAt: number): number {
  if (ts === undefined) return receivedAt;
  return Math.min(receivedAt, Math.max(ts, receivedAt - REPORT_TIME_TOLERANCE_MS));
}

/** One report's columns (absent fields absent) as a panel state, split into its groups. */
export function panelState(id: number, values: ReportValues, at: number, seenAt: number): PanelState {
  const groups: PanelState['groups'] = {};
  for (const [column, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const group = GROUP_OF.get(column);
    if (!group) throw new Error(`not a report column: ${column}`);
    const write = (groups[group] ??= { at, set: {} });
    (write.set as Record<string, unknown>)[column] = value;
  }
  return { id, seenAt, groups };
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
    else if (write.at >= held.at) groups[group] = { at: write.at, set: { ...held.set, ...write.set } };
    else groups[group] = { at: held.at, set: { ...write.set, ...held.set } };
  }
  return { id: a.id, seenAt: Math.max(a.seenAt, b.seenAt), groups };
}
