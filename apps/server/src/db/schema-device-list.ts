import type { Generated } from 'kysely';

/** Per organisation: a version that moves with every change of the device list's order, and its size. */
export interface DeviceOrderStateTable {
  org_id: number;
  version: number;
  total: number;
}

/** What each version changed: +1 (a device entered) or -1 (left) at the position (name_key, device_id). */
export interface DeviceOrderChangesTable {
  id: Generated<number>;
  org_id: number;
  version: number;
  name_key: string;
  device_id: number;
  delta: number;
}

export interface DeviceListTables {
  device_order_state: DeviceOrderStateTable;
  device_order_changes: DeviceOrderChangesTable;
}
