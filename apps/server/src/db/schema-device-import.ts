/** A serial a CSV import named before any panel of the company held it (migration 048). */
export interface DeviceImportPendingTable {
  org_id: number;
  device_key: string;
  /** Null: the file had no such column (or an empty name); nothing changes at enrollment. */
  name: string | null;
  location: string | null;
  remark: string | null;
  /** JSON array of label names; null: the labels are left alone. */
  labels: string | null;
  imported_at: number;
}

export interface DeviceImportTables {
  device_import_pending: DeviceImportPendingTable;
}
