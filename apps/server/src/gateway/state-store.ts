import { sql, type Kysely, type RawBuilder, type Updateable } from 'kysely';
import type { Dialect } from '../db/database.js';
import { jsonRows, type JsonRowColumns } from '../db/json-rows.js';
import type { Database, DevicesTable } from '../db/schema.js';

export type DeviceUpdate = { id: number; set: Updateable<DevicesTable> };

/** The device columns a report may write, with their PostgreSQL types (JSON cells are cast to them there). */
const REPORT_COLUMNS = {
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
  last_seen_at: 'int8',
} as const satisfies JsonRowColumns;
type ReportColumn = keyof typeof REPORT_COLUMNS;

/** Rows per statement: bounds the JSON parameter of one statement (a few hundred bytes a row). */
const MAX_ROWS = 5_000;

function isReportColumn(column: string): column is ReportColumn {
  return Object.hasOwn(REPORT_COLUMNS, column);
}

/**
 * Writes batches of device reports set-based: the rows that change the same columns become one
 * `UPDATE devices ... FROM (rows of one JSON parameter)` per chunk, instead of one statement per
 * device (the per-statement cost, not the database, bounded state ingest and label broadcasts).
 */
export class DeviceStateStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly maxRows = MAX_ROWS,
  ) {}

  async apply(updates: DeviceUpdate[]) {
    const groups = new Map<string, { columns: ReportColumn[]; rows: DeviceUpdate[] }>();
    for (const update of updates) {
      const columns = Object.keys(update.set)
        .filter((c) => update.set[c as keyof typeof update.set] !== undefined)
        .sort();
      if (!columns.length) continue;
      const unknown = columns.find((c) => !isReportColumn(c));
      if (unknown) throw new Error(`not a report column: ${unknown}`);
      const key = columns.join(',');
      const group = groups.get(key);
      if (group) group.rows.push(update);
      else groups.set(key, { columns: columns as ReportColumn[], rows: [update] });
    }
    if (!groups.size) return;
    await this.db.transaction().execute(async (trx) => {
      for (const { columns, rows } of groups.values()) {
        for (let i = 0; i < rows.length; i += this.maxRows)
          await this.statement(columns, rows.slice(i, i + this.maxRows)).execute(trx);
      }
    });
  }

  private statement(columns: ReportColumn[], rows: DeviceUpdate[]): RawBuilder<unknown> {
    const types: JsonRowColumns = Object.fromEntries([
      ['id', 'int4'],
      ...columns.map((c) => [c, REPORT_COLUMNS[c]]),
    ]);
    // In id order: instances writing overlapping batches then lock rows in the same order.
    const cells = [...rows]
      .sort((a, b) => a.id - b.id)
      .map((row) => [row.id, ...columns.map((c) => row.set[c] ?? null)]);
    const assignments = sql.join(columns.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
    return sql`UPDATE devices SET ${assignments} FROM ${jsonRows(this.dialect, types, cells)} WHERE devices.id = v.id`;
  }
}
