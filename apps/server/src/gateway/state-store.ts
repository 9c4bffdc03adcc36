import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../db/database.js';
import { jsonRows, type JsonRowColumns, type JsonRowType } from '../db/json-rows.js';
import type { Database } from '../db/schema.js';
import {
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

/** Rows per statement: bounds the JSON parameter of one statement (a few hundred bytes a row). */
const MAX_ROWS = 5_000;

/** The groups a state writes and, within each, the columns it carries: rows of one shape share a statement. */
type Shape = Array<[ReportGroup, ReportColumn[]]>;

function shapeOf(state: PanelState): Shape {
  return (Object.keys(REPORT_GROUPS) as ReportGroup[]).flatMap((group): Shape => {
    const write = state.groups[group];
    if (!write) return [];
    const columns = (REPORT_GROUPS[group] as readonly ReportColumn[]).filter(
      (c) => write.set[c] !== undefined,
    );
    return columns.length ? [[group, columns]] : [];
  });
}

/**
 * Writes batches of panel states set-based: the states of one shape become one
 * `UPDATE devices ... FROM (rows of one JSON parameter)` per chunk, instead of one statement per
 * device (the per-statement cost, not the database, bounded state ingest and label broadcasts).
 * A row only moves forward: each group is written when the state's time for it is not older
 * than the group's `*_reported_at`, and `last_seen_at` only grows, so instances that write one
 * panel's reports in another order than the panel sent them still leave its newest values.
 */
export class DeviceStateStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly maxRows = MAX_ROWS,
  ) {}

  async apply(states: PanelState[]) {
    const shapes = new Map<string, { shape: Shape; rows: PanelState[] }>();
    for (const state of states) {
      const shape = shapeOf(state);
      const key = shape.map(([group, columns]) => `${group}:${columns.join(',')}`).join(';');
      const found = shapes.get(key);
      if (found) found.rows.push(state);
      else shapes.set(key, { shape, rows: [state] });
    }
    if (!shapes.size) return;
    await this.db.transaction().execute(async (trx) => {
      for (const { shape, rows } of shapes.values()) {
        for (let i = 0; i < rows.length; i += this.maxRows)
          await this.statement(shape, rows.slice(i, i + this.maxRows)).execute(trx);
      }
    });
  }

  private statement(shape: Shape, rows: PanelState[]): RawBuilder<unknown> {
    const types: JsonRowColumns = { id: 'int4', seen_at: 'int8' };
    for (const [group, columns] of shape) {
      types[`at_${group}`] = 'int8';
      for (const column of columns) types[column] = COLUMN_TYPES[column];
    }
    // In id order: instances writing overlapping batches then lock rows in the same order.
    const cells = [...rows]
      .sort((a, b) => a.id - b.id)
      .map((row) => [
        row.id,
        row.seenAt,
        ...shape.flatMap(([group, columns]) => {
          const write = row.groups[group]!;
          return [write.at, ...columns.map((c) => write.set[c] ?? null)];
        }),
      ]);
    const latest = (column: string, value: string) =>
      sql`CASE WHEN v.${sql.ref(value)} >= COALESCE(devices.${sql.ref(column)}, 0) THEN v.${sql.ref(value)} ELSE devices.${sql.ref(column)} END`;
    const assignments = [
      sql`last_seen_at = ${latest('last_seen_at', 'seen_at')}`,
      ...shape.flatMap(([group, columns]) => {
        const at = reportedAtColumn(group);
        const newer = sql`v.${sql.ref(`at_${group}`)} >= COALESCE(devices.${sql.ref(at)}, 0)`;
        return [
          ...columns.map(
            (c) =>
              sql`${sql.ref(c)} = CASE WHEN ${newer} THEN v.${sql.ref(c)} ELSE devices.${sql.ref(c)} END`,
          ),
          sql`${sql.ref(at)} = ${latest(at, `at_${group}`)}`,
        ];
      }),
    ];
    return sql`UPDATE devices SET ${sql.join(assignments)} FROM ${jsonRows(this.dialect, types, cells)} WHERE devices.id = v.id`;
  }
}
