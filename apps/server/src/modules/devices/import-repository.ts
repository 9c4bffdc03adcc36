import { sql, type Kysely } from 'kysely';
import { onPostgres } from '../../db/dialect-of.js';
import type { Database } from '../../db/schema.js';

/** Rows per statement: the import writes INSERT … VALUES and UPDATE … FROM (VALUES) of this many rows. */
export const IMPORT_BATCH = 500;

/** A panel of the company as the import compares it. */
export interface ImportedPanel {
  id: number;
  device_key: string;
  name: string;
  location: string;
  remark: string;
}

/** A serial waiting for its panel (null: the field is left alone). */
export interface PendingPanel {
  device_key: string;
  name: string | null;
  location: string | null;
  remark: string | null;
  /** JSON array of label names. */
  labels: string | null;
}

/** New field values of a panel (undefined: unchanged). */
export interface PanelFields {
  id: number;
  name?: string;
  location?: string;
  remark?: string;
}

/**
 * The SQL of the CSV import (modules/devices/import-service.ts): reads of a batch of serials and
 * the batch writes, every statement scoped by the organisation.
 */
export class DeviceImportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The company's panels among the serials. */
  panels(orgId: number, serials: string[]): Promise<ImportedPanel[]> {
    if (!serials.length) return Promise.resolve([]);
    return this.db
      .selectFrom('devices')
      .select(['id', 'device_key', 'name', 'location', 'remark'])
      .where('org_id', '=', orgId)
      .where('device_key', 'in', serials)
      .execute();
  }

  /** The label names of the company's panels, sorted as the import sorts a labels cell. */
  async panelLabels(orgId: number, deviceIds: number[]): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>();
    if (!deviceIds.length) return map;
    const rows = await this.db
      .selectFrom('label_devices')
      .innerJoin('labels', 'labels.id', 'label_devices.label_id')
      .select(['label_devices.device_id', 'labels.name'])
      .where('label_devices.org_id', '=', orgId)
      .where('label_devices.device_id', 'in', deviceIds)
      .execute();
    for (const r of rows) {
      const names = map.get(r.device_id);
      if (names) names.push(r.name);
      else map.set(r.device_id, [r.name]);
    }
    for (const names of map.values()) names.sort();
    return map;
  }

  /** The company's waiting records among the serials. */
  pending(orgId: number, serials: string[]): Promise<PendingPanel[]> {
    if (!serials.length) return Promise.resolve([]);
    return this.db
      .selectFrom('device_import_pending')
      .select(['device_key', 'name', 'location', 'remark', 'labels'])
      .where('org_id', '=', orgId)
      .where('device_key', 'in', serials)
      .execute();
  }

  /**
   * The names of the company's dynamic labels (defined by a filter): their members follow from
   * the filter, so an import neither assigns nor compares them.
   */
  async dynamicLabelNames(orgId: number): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('labels')
      .select('name')
      .where('org_id', '=', orgId)
      .where('filter', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.name));
  }

  /** The company's label names and ids. */
  async labelIds(orgId: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('labels')
      .select(['id', 'name'])
      .where('org_id', '=', orgId)
      .execute();
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  async createLabels(orgId: number, names: string[], now: number) {
    for (let i = 0; i < names.length; i += IMPORT_BATCH)
      await this.db
        .insertInto('labels')
        .values(names.slice(i, i + IMPORT_BATCH).map((name) => ({ org_id: orgId, name, created_at: now })))
        .onConflict((oc) => oc.columns(['org_id', 'name']).doNothing())
        .execute();
  }

  /** New names, locations and remarks of the company's panels, one statement per batch. */
  async updatePanels(orgId: number, panels: PanelFields[]) {
    for (let i = 0; i < panels.length; i += IMPORT_BATCH) {
      const rows = panels
        .slice(i, i + IMPORT_BATCH)
        .map(
          (p) =>
            sql`(CAST(${p.id} AS integer), CAST(${p.name ?? null} AS text), CAST(${p.location ?? null} AS text), CAST(${p.remark ?? null} AS text))`,
        );
      // A named VALUES list: SQLite takes column names on a WITH, not on a FROM (VALUES …) alias.
      await sql`WITH v(id, name, location, remark) AS (VALUES ${sql.join(rows)})
        UPDATE devices SET
          name = COALESCE(v.name, devices.name),
          location = COALESCE(v.location, devices.location),
          remark = COALESCE(v.remark, devices.remark)
        FROM v
        WHERE devices.org_id = ${orgId} AND devices.id = v.id`.execute(this.db);
    }
  }

  /**
   * The panels get exactly these labels. On PostgreSQL the company's label assignments are taken
   * one at a time, as the labels module does (labels/repository.ts, replaceLabelsOf).
   */
  async replaceLabels(orgId: number, labelsOf: Map<number, number[]>) {
    const ids = [...labelsOf.keys()];
    if (!ids.length) return;
    if (onPostgres(this.db as Kysely<unknown>))
      await sql`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':label_devices'), ${orgId}::int4)`.execute(
        this.db,
      );
    for (let i = 0; i < ids.length; i += IMPORT_BATCH)
      await this.db
        .deleteFrom('label_devices')
        .where('org_id', '=', orgId)
        .where('device_id', 'in', ids.slice(i, i + IMPORT_BATCH))
        .execute();
    const pairs = [...labelsOf].flatMap(([deviceId, labelIds]) =>
      labelIds.map((labelId) => ({ label_id: labelId, device_id: deviceId, org_id: orgId })),
    );
    for (let i = 0; i < pairs.length; i += IMPORT_BATCH)
      await this.db
        .insertInto('label_devices')
        .values(pairs.slice(i, i + IMPORT_BATCH))
        .execute();
  }

  /** Waiting records, new or changed: a field the file left out keeps what an earlier import said. */
  async savePending(orgId: number, rows: PendingPanel[], now: number) {
    for (let i = 0; i < rows.length; i += IMPORT_BATCH)
      await this.db
        .insertInto('device_import_pending')
        .values(rows.slice(i, i + IMPORT_BATCH).map((r) => ({ ...r, org_id: orgId, imported_at: now })))
        .onConflict((oc) =>
          oc.columns(['org_id', 'device_key']).doUpdateSet((eb) => ({
            name: eb.fn.coalesce('excluded.name', 'device_import_pending.name'),
            location: eb.fn.coalesce('excluded.location', 'device_import_pending.location'),
            remark: eb.fn.coalesce('excluded.remark', 'device_import_pending.remark'),
            labels: eb.fn.coalesce('excluded.labels', 'device_import_pending.labels'),
            imported_at: eb.ref('excluded.imported_at'),
          })),
        )
        .execute();
  }

  /** The waiting record of a serial that has just enrolled into the company, taken (deleted). */
  async takePending(orgId: number, serial: string): Promise<PendingPanel | undefined> {
    const found = await this.db
      .selectFrom('device_import_pending')
      .select(['device_key', 'name', 'location', 'remark', 'labels'])
      .where('org_id', '=', orgId)
      .where('device_key', '=', serial)
      .executeTakeFirst();
    if (found)
      await this.db
        .deleteFrom('device_import_pending')
        .where('org_id', '=', orgId)
        .where('device_key', '=', serial)
        .execute();
    return found;
  }
}
