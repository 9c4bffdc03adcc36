import type { Generated } from 'kysely';

/**
 * Signal sources (migrations 006, 020): the deployment's catalog (org_id NULL, kept by the
 * platform; machine types draw on it) and the sources a distributor or company added for its
 * own panels.
 */
export interface SignalSourcesTable {
  id: Generated<number>;
  name: string;
  /** Unique within its owner; the value of order 04 that a panel switches to. */
  source_key: string;
  created_at: number;
  /** The organisation that added it; NULL for the deployment's catalog. */
  org_id: number | null;
}

export interface MachineTypesTable {
  id: Generated<number>;
  /** Unique; devices refer to it by the name they report (devices.machine_type). */
  name: string;
  /** 1 enabled, 0 disabled. */
  enabled: number;
  /** User name of whoever added it ('system' for the seeded entries). */
  create_man: string;
  created_at: number;
  updated_at: number;
}

export interface MachineTypeSourcesTable {
  id: Generated<number>;
  machine_type_id: number;
  source_id: number;
  /** Order of the source within its machine type, as chosen. */
  position: number;
}

export interface CatalogTables {
  signal_sources: SignalSourcesTable;
  machine_types: MachineTypesTable;
  machine_type_sources: MachineTypeSourcesTable;
}
