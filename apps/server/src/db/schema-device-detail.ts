import type { Generated } from 'kysely';

/** One section of a panel's reported settings (spec 2 jsonData platformMsg). */
export interface DeviceSettingsTable {
  id: Generated<number>;
  org_id: number;
  device_id: number;
  /** The panel's series: x9_vn, oem or rs. */
  platform: string;
  section: string;
  /** JSON of the section's value. */
  value: string;
  reported_at: number;
}

export interface DeviceDetailTables {
  device_settings: DeviceSettingsTable;
}
