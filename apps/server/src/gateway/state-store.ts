import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../db/database.js';
import { jsonRows, type JsonRowColumns, type JsonRowType } from '../db/json-rows.js';
import type { Database } from '../db/schema.js';
import { historyBranch, historyInsert, presenceInsert, presenceUpdate } from './history-repository.js';
import {
  BOOT_TOLERANCE_MS,
  bootTimeOf,
  REPORT_GROUPS,
  reportedAtColumn,
  type PanelState,
  type ReportColumn,
  type ReportGroup,
} from './report-groups.js';

/** The PostgreSQL type of each report column (JSON cells are cast to them there). */
const COLUMN_TYPES: Record<ReportColumn, JsonRowType> = {
  public_ip: 'text',
  local_ip: 'text',
  netmask: 'text',
  mac: 'text',
  model: 'text',
  machine_type: 'text',
  ota_version: 'text',
  latitude: 'float8',
  longitude: 'float8',
  ram_total: 'int8',
  ram_used: 'int8',
  apk_current: 'int8',
  apk_total: 'int8',
  ota_current: 'int8',
  ota_total: 'int8',
  network_intensity: 'int4',
  network_state: 'text',
  cpu_temperature: 'float8',
  brightness: 'int4',
  volume: 'int4',
  mute: 'int4',
  source: 'text',
  power: 'text',
  utc_offset: 'int4',
};

/** From this many groups on, SQLite works out per row and group once whether the report is newer (see `statement`). */
const MATERIALIZE_FROM_GROUPS = 3;

/** Rows per statement: bounds the JSON parameter of one statement (a few hundred bytes a row). */
const MAX_ROWS = 5_000;

/**
 * What a state writes: per group the columns it carries and whether its report carried the
 * panel's uptime; whether it places the panel's boot and its clock. Rows of one shape share a
 * statement.
 */
interface Shape {
  groups: Array<{ group: ReportGroup; columns: ReportColumn[]; timed: boolean }>;
  boot: boolean;
  clock: boolean;
}

const GROUPS = Object.entries(REPORT_GROUPS) as Array<[ReportGroup, readonly ReportColumn[]]>;

/** A state's shape with its key (which columns of which groups, timed or not; boot; clock), in one pass. */
function shapeOf(state: PanelState): { shape: Shape; key: string } {
  const groups: Shape['groups'] = [];
  let key = '';
  for (const [group, all] of GROUPS) {
    const write = state.groups[group];
    if (!write) continue;
    const columns = all.filter((c) => write.set[c] !== undefined);
    if (!columns.length) continue;
    const timed = write.uptimeMs !== undefined;
    groups.push({ group, columns, timed });
    key += `${group}${timed ? '+up' : ''}:${columns.join(',')};`;
  }
  const boot = state.boot !== undefined;
  const clock = state.clock !== undefined;
  return { shape: { groups, boot, clock }, key: `${key}${boot ? 'boot' : ''};${clock ? 'clock' : ''}` };
}

/**
 * Writes batches of panel states set-based: the states of one shape become one
 * `UPDATE devices ... FROM (rows of one JSON parameter)` per chunk, instead of one statement per
 * device (the per-statement cost, not the database, bounded state ingest and label broadcasts).
 * A row only moves forward: each group is written when its report was not made before the one
 * that last wrote it (`*_reported_at`), and `last_seen_at` only grows, so instances that write one
 * panel's reports in another order than the panel sent them still leave its newest values.
 *
 * When a report was made, on the server's clock: its receive time, or, for a report of the boot
 * the row is anchored to (`boot_anchor`: receive time minus uptime of the first report written
 * after the panel booted), the anchor plus its uptime. Within a boot the uptime orders reports
 * exactly, whichever instance received them and however late they are written; a panel's wall
 * clock is never compared, only kept as its offset (`clock_offset_ms`) for the console.
 */
export class DeviceStateStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly maxRows = MAX_ROWS,
    /** This instance when its embedded broker holds the panels' connections (presenceUpdate); else null. */
    private readonly presenceOwner: string | null = null,
  ) {}

  async apply(states: PanelState[]) {
    const shapes = new Map<string, { shape: Shape; rows: PanelState[] }>();
    for (const state of states) {
      const { shape, key } = shapeOf(state);
      const found = shapes.get(key);
      if (found) found.rows.push(state);
      else shapes.set(key, { shape, rows: [state] });
    }
    if (!shapes.size) return;
    await this.db.transaction().execute(async (trx) => {
      // PostgreSQL: the batch's rows are locked first, all in id order, so two instances writing
      // overlapping batches (several statements each, one per shape) wait for each other instead
      // of deadlocking. SQLite has one writer at a time.
      if (this.dialect === 'postgres') {
        const ids = [...new Set(states.map((state) => state.id))].sort((a, b) => a - b);
        await sql`SELECT id FROM devices WHERE id = ANY(${ids}::int[]) ORDER BY id FOR UPDATE`.execute(trx);
      }
      for (const { shape, rows } of shapes.values()) {
        for (let i = 0; i < rows.length; i += this.maxRows)
          for (const statement of this.statements(shape, rows.slice(i, i + this.maxRows)))
            await statement.execute(trx);
      }
      const presence = states.flatMap((state) => (state.presence ?? []).map((p) => ({ id: state.id, ...p })));
      for (let i = 0; i < presence.length; i += this.maxRows) {
        const part = presence.slice(i, i + this.maxRows);
        await presenceInsert(this.dialect, part).execute(trx);
        await presenceUpdate(this.dialect, part, this.presenceOwner).execute(trx);
      }
    });
  }

  /**
   * The statements of one shape's rows: the history of the groups they change (issue 27, read
   * before the row changes), then the row's update.
   */
  private statements(shape: Shape, rows: PanelState[]): Array<RawBuilder<unknown>> {
    const types: JsonRowColumns = { id: 'int4', seen_at: 'int8' };
    if (shape.boot) types.boot_at = 'int8';
    if (shape.clock) Object.assign(types, { clock_offset: 'int8', clock_at: 'int8' });
    for (const { group, columns, timed } of shape.groups) {
      types[`at_${group}`] = 'int8';
      if (timed) types[`up_${group}`] = 'int8';
      for (const column of columns) types[column] = COLUMN_TYPES[column];
    }
    // In id order: instances writing overlapping batches then lock rows in the same order.
    const cells = [...rows]
      .sort((a, b) => a.id - b.id)
      .map((row) => [
        row.id,
        row.seenAt,
        ...(shape.boot ? [bootTimeOf(row.boot!)] : []),
        ...(shape.clock ? [row.clock!.offsetMs, row.clock!.at] : []),
        ...shape.groups.flatMap(({ group, columns, timed }) => {
          const write = row.groups[group]!;
          return [write.at, ...(timed ? [write.uptimeMs] : []), ...columns.map((c) => write.set[c] ?? null)];
        }),
      ]);
    const rowSet = jsonRows(this.dialect, types, cells);
    // Many groups on SQLite: each group's "is this report newer" is worked out once per row in a
    // materialized table, where inline every column's CASE read its JSON cells and the row's
    // anchor again (a full report's statement cost 2.3x its issue-18 form; docs/benchmarks.md).
    const materialize = this.dialect === 'sqlite' && shape.groups.length >= MATERIALIZE_FROM_GROUPS;
    const v = (column: string) => sql.ref(`v.${column}`);
    const src = (column: string) => sql.ref(`${materialize ? 'm' : 'v'}.${column}`);
    const stored = (column: string) => sql.ref(`devices.${column}`);
    const latest = (column: string, value: string) =>
      sql`CASE WHEN ${src(value)} >= COALESCE(${stored(column)}, 0) THEN ${src(value)} ELSE ${stored(column)} END`;
    const tolerance = sql.lit(BOOT_TOLERANCE_MS);
    const decided: RawBuilder<unknown>[] = [];
    const history: RawBuilder<unknown>[] = [];
    const assignments = [sql`last_seen_at = ${latest('last_seen_at', 'seen_at')}`];
    // The anchor the row holds once this statement is written: a boot later than the anchored one
    // (beyond the tolerance), or the first boot written, anchors the row anew. A group is placed
    // against this anchor, not the one before: a first batch that merged reports 2 to 40 carries
    // the boot of report 2, and its values must count as made at report 40's uptime, or a report 38
    // that another instance writes next would pass for newer.
    const anchor = shape.boot
      ? sql`CASE WHEN devices.boot_anchor IS NULL OR ${v('boot_at')} > devices.boot_anchor + ${tolerance} THEN ${v('boot_at')} ELSE devices.boot_anchor END`
      : sql`devices.boot_anchor`;
    if (shape.boot) {
      if (materialize) decided.push(sql`${anchor} AS anchor_after`);
      assignments.push(sql`boot_anchor = ${materialize ? src('anchor_after') : anchor}`);
    }
    if (shape.clock) {
      const newer = sql`${src('clock_at')} >= COALESCE(devices.clock_offset_at, 0)`;
      assignments.push(
        sql`clock_offset_ms = CASE WHEN ${newer} THEN ${src('clock_offset')} ELSE devices.clock_offset_ms END`,
        sql`clock_offset_at = CASE WHEN ${newer} THEN ${src('clock_at')} ELSE devices.clock_offset_at END`,
      );
    }
    for (const { group, columns, timed } of shape.groups) {
      const at = reportedAtColumn(group);
      const made = timed
        ? sql`CASE WHEN abs(${v(`at_${group}`)} - ${v(`up_${group}`)} - (${anchor})) <= ${tolerance} THEN (${anchor}) + ${v(`up_${group}`)} ELSE ${v(`at_${group}`)} END`
        : v(`at_${group}`);
      if (materialize) decided.push(sql`${made} AS ${sql.ref(`made_${group}`)}`);
      const madeValue = materialize ? src(`made_${group}`) : made;
      const newer = sql`${madeValue} >= COALESCE(${stored(at)}, 0)`;
      const branch = historyBranch({ dialect: this.dialect, group, columns, made, storedAt: stored(at) });
      if (branch) history.push(branch);
      assignments.push(
        ...columns.map((c) => sql`${sql.ref(c)} = CASE WHEN ${newer} THEN ${src(c)} ELSE ${stored(c)} END`),
        sql`${sql.ref(at)} = CASE WHEN ${newer} THEN ${madeValue} ELSE ${stored(at)} END`,
      );
    }
    const before = history.length ? [historyInsert(rowSet, history)] : [];
    if (materialize)
      return [
        ...before,
        sql`WITH m AS MATERIALIZED (SELECT v.*, ${sql.join(decided)} FROM ${rowSet} JOIN devices ON devices.id = v.id) UPDATE devices SET ${sql.join(assignments)} FROM m WHERE devices.id = m.id`,
      ];
    return [
      ...before,
      sql`UPDATE devices SET ${sql.join(assignments)} FROM ${rowSet} WHERE devices.id = v.id`,
    ];
  }
}
