import { sql, type Kysely, type RawBuilder, type Updateable } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { Database, DevicesTable } from '../db/schema.js';

export type DeviceUpdate = { id: number; set: Updateable<DevicesTable> };

/** The device columns a report may write, with their PostgreSQL types (VALUES rows need typed cells there). */
const REPORT_COLUMNS = {
  public_ip: 'text', local_ip: 'text', netmask: 'text', mac: 'text', model: 'text', machine_type: 'text', ota_version: 'text',
  latitude: 'float8', longitude: 'float8', ram_total: 'int8', ram_used: 'int8', apk_current: 'int8', apk_total: 'int8',
  ota_current: 'int8', ota_total: 'int8', network_intensity: 'int4', network_state: 'text', cpu_temperature: 'float8',
  brightness: 'int4', volume: 'int4', mute: 'int4', source: 'text', power: 'text', last_seen_at: 'int8',
} as const;
type ReportColumn = keyof typeof REPORT_COLUMNS;

/** Well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters per statement. */
const MAX_PARAMETERS = 30_000;

function isReportColumn(column: string): column is ReportColumn {
  return Object.hasOwn(REPORT_COLUMNS, column);
}

/**
 * Writes batches of device reports set-based: the rows that change the same columns become one
 * `UPDATE devices ... FROM (VALUES ...)` per chunk, instead of one statement per device (the
 * per-statement cost, not the database, bounded state ingest and label broadcasts).
 */
export class DeviceStateStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly maxParameters = MAX_PARAMETERS,
  ) {}

  async apply(updates: DeviceUpdate[]) {
    const groups = new Map<string, { columns: ReportColumn[]; rows: DeviceUpdate[] }>();
    for (const update of updates) {
      const columns = Object.keys(update.set).filter((c) => update.set[c as keyof typeof update.set] !== undefined).sort();
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
        const perStatement = Math.max(1, Math.floor(this.maxParameters / (columns.length + 1)));
        for (let i = 0; i < rows.length; i += perStatement) await this.statement(columns, rows.slice(i, i + perStatement)).execute(trx);
      }
    });
  }

  private statement(columns: ReportColumn[], rows: DeviceUpdate[]): RawBuilder<unknown> {
    const value = (row: DeviceUpdate, column: ReportColumn) => row.set[column] as string | number | null;
    if (this.dialect === 'postgres') {
      const cell = (v: unknown, type: string) => sql`${v}::${sql.raw(type)}`;
      const values = rows.map((row) => sql`(${sql.join([cell(row.id, 'int4'), ...columns.map((c) => cell(value(row, c), REPORT_COLUMNS[c]))])})`);
      const names = sql.join([sql.ref('id'), ...columns.map((c) => sql.ref(c))]);
      const assignments = sql.join(columns.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
      return sql`UPDATE devices AS d SET ${assignments} FROM (VALUES ${sql.join(values)}) AS v(${names}) WHERE d.id = v.id`;
    }
    // SQLite names the columns of a VALUES table column1, column2, ...
    const values = rows.map((row) => sql`(${sql.join([row.id, ...columns.map((c) => value(row, c))])})`);
    const assignments = sql.join(columns.map((c, i) => sql`${sql.ref(c)} = v.${sql.raw(`column${i + 2}`)}`));
    return sql`UPDATE devices SET ${assignments} FROM (VALUES ${sql.join(values)}) AS v WHERE devices.id = v.column1`;
  }
}
