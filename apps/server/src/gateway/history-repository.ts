import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../db/database.js';
import { jsonRows } from '../db/json-rows.js';
import { APP_HISTORY_GROUP } from '../modules/devices/app-changes.js';
import type { PresenceChange, ReportColumn, ReportGroup } from './report-groups.js';

/** Where a field group's values go in a history row (`panel_history`: n1..n3 numbers, txt text). */
export type HistorySlot = 'n1' | 'n2' | 'n3' | 'txt';

/**
 * The field groups whose changes make a panel's history (issue 27 item 5), and which column each
 * slot holds. The numeric ones are kept per hour past the raw window (ROLLED_UP_GROUPS); version,
 * source and power changes stay rows of their own until the retention ends.
 */
export const HISTORY_GROUPS = {
  telemetry: { n1: 'cpu_temperature', n2: 'ram_used', n3: 'ram_total' },
  brightness: { n1: 'brightness' },
  sound: { n1: 'volume', n2: 'mute' },
  network: { n1: 'network_intensity', txt: 'network_state' },
  identity: { txt: 'ota_version' },
  source: { txt: 'source' },
  power: { txt: 'power' },
} as const satisfies Partial<Record<ReportGroup, Partial<Record<HistorySlot, ReportColumn>>>>;

export type HistoryGroup = keyof typeof HISTORY_GROUPS | 'presence' | typeof APP_HISTORY_GROUP;
export const ROLLED_UP_GROUPS = ['telemetry', 'brightness', 'sound', 'network'] as const;
/** Every group a history row may have. */
export const ALL_HISTORY_GROUPS: readonly HistoryGroup[] = [
  ...(Object.keys(HISTORY_GROUPS) as Array<keyof typeof HISTORY_GROUPS>),
  'presence',
  APP_HISTORY_GROUP,
];

const SLOTS: HistorySlot[] = ['n1', 'n2', 'n3', 'txt'];

/** What a state statement needs to say "this group's report is newer than the row's, and changed something". */
export interface HistoryBranchInput {
  dialect: Dialect;
  group: ReportGroup;
  /** The columns of the group this statement carries. */
  columns: readonly ReportColumn[];
  /** When the report was made (an expression over `v` and `devices`). */
  made: RawBuilder<unknown>;
  /** The time the row holds for the group's last write. */
  storedAt: RawBuilder<unknown>;
}

/**
 * One `SELECT` of the history insert for a group: a row per panel whose report is the newest for
 * the group and carries a value other than the one the panel's row holds. Read before the row is
 * updated (same transaction), so "changed" compares with what was there.
 */
export function historyBranch(input: HistoryBranchInput): RawBuilder<unknown> | undefined {
  const slots = (HISTORY_GROUPS as Partial<Record<ReportGroup, Partial<Record<HistorySlot, ReportColumn>>>>)[
    input.group
  ];
  if (!slots) return undefined;
  const tracked = Object.values(slots).filter((c) => input.columns.includes(c));
  if (!tracked.length) return undefined;
  const distinct = input.dialect === 'postgres' ? sql`IS DISTINCT FROM` : sql`IS NOT`;
  const changed = sql.join(
    tracked.map((c) => sql`${sql.ref(`v.${c}`)} ${distinct} ${sql.ref(`devices.${c}`)}`),
    sql` OR `,
  );
  const cells = SLOTS.map((slot) => {
    const column = slots[slot];
    const type = slot === 'txt' ? sql`text` : sql`double precision`;
    if (!column) return sql`CAST(NULL AS ${type})`;
    const source = input.columns.includes(column) ? `v.${column}` : `devices.${column}`;
    return sql`CAST(${sql.ref(source)} AS ${type})`;
  });
  return sql`SELECT devices.org_id, v.id, ${sql.lit(input.group)}, ${input.made}, ${sql.join(cells)} FROM v JOIN devices ON devices.id = v.id WHERE ${input.made} >= COALESCE(${input.storedAt}, 0) AND (${changed})`;
}

/** The history insert of one state statement: its rows (`rowSet`, aliased v) read once. */
export function historyInsert(rowSet: RawBuilder<unknown>, branches: RawBuilder<unknown>[]) {
  return sql`WITH v AS (SELECT * FROM ${rowSet}) INSERT INTO panel_history (org_id, device_id, grp, at, n1, n2, n3, txt) ${sql.join(branches, sql` UNION ALL `)}`;
}

/** Presence changes of a batch, one insert (the panel's organisation from its row). */
export function presenceInsert(
  dialect: Dialect,
  changes: Array<{ id: number } & PresenceChange>,
): RawBuilder<unknown> {
  const rowSet = jsonRows(
    dialect,
    { id: 'int4', at: 'int8', online: 'int4', reason: 'text' },
    changes.map((c) => [c.id, c.at, c.online ? 1 : 0, c.reason]),
  );
  return sql`INSERT INTO panel_history (org_id, device_id, grp, at, n1, n2, n3, txt) SELECT devices.org_id, v.id, 'presence', v.at, v.online, NULL, NULL, v.reason FROM ${rowSet} JOIN devices ON devices.id = v.id`;
}

/**
 * The panels' `online` column from their newest presence change of the batch (migration 047:
 * dynamic labels filter on it in the database, whichever instance holds the connection). A change
 * older than the one the row holds is not written, so instances that write one panel's changes
 * out of order leave the newest.
 *
 * `owner` (migration 049): this instance, when its embedded broker holds the connections; null when
 * presence comes from an external broker that every instance reads. A connection is written with
 * its holder; a disconnection only where no other instance holds the panel now (it reconnected
 * there: this instance's late "gone" must not end that instance's claim). When an instance dies,
 * another marks the panels it held offline (presence-lease-repository.ts).
 */
export function presenceUpdate(
  dialect: Dialect,
  changes: Array<{ id: number } & PresenceChange>,
  owner: string | null = null,
): RawBuilder<unknown> {
  const newest = new Map<number, { id: number } & PresenceChange>();
  for (const c of changes) {
    const held = newest.get(c.id);
    if (!held || c.at >= held.at) newest.set(c.id, c);
  }
  const rowSet = jsonRows(
    dialect,
    { id: 'int4', at: 'int8', online: 'int4' },
    [...newest.values()].sort((a, b) => a.id - b.id).map((c) => [c.id, c.at, c.online ? 1 : 0]),
  );
  const ours =
    owner === null
      ? sql``
      : sql` AND (v.online = 1 OR devices.online_by IS NULL OR devices.online_by = ${owner})`;
  return sql`UPDATE devices SET online = v.online, online_at = v.at,
    online_by = CASE WHEN v.online = 1 THEN CAST(${owner} AS text) ELSE NULL END FROM ${rowSet}
    WHERE devices.id = v.id AND v.at >= COALESCE(devices.online_at, 0)${ours}`;
}
