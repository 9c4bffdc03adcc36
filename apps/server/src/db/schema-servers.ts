import type { Generated } from 'kysely';

export interface ServersTable {
  id: Generated<number>;
  server_id: string;
  license_id: number;
  company_name: string;
  /** SHA-256 of the deployment's reporting secret. */
  secret_hash: string;
  mac: string;
  os: string;
  /** 1 available, 0 expired. */
  state: number;
  valid_begin: number;
  valid_end: number;
  last_report_at: number | null;
  created_at: number;
}

export interface ServerIdentityTable {
  id: number;
  server_id: string;
  /** The reporting secret the platform gave at activation (this side must present it). */
  secret: string | null;
  company_name: string | null;
  valid_begin: number | null;
  valid_end: number | null;
  activated_at: number | null;
}

export interface ServerTables {
  servers: ServersTable;
  server_identity: ServerIdentityTable;
}
