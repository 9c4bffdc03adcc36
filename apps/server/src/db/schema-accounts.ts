import type { Generated } from 'kysely';

export interface SalespeopleTable {
  id: Generated<number>;
  work_number: string;
  name: string;
  company_name: string;
  phone: string;
  /** 1 on the job, 0 off the job. */
  job_state: number;
  created_at: number;
}

export interface LicensesTable {
  id: Generated<number>;
  license_key: string;
  company_name: string;
  salesperson_id: number;
  /** 0 used, 1 enabled, 2 disabled. */
  state: number;
  /** 0 lets a company register, 1 activates a private server. */
  type: number;
  valid_begin: number;
  valid_end: number;
  used_by_org_id: number | null;
  created_at: number;
}

export interface AccountTokensTable {
  /** SHA-256 of the 128-bit token in the link; the token itself is never stored. */
  id: string;
  user_id: number;
  purpose: 'activation' | 'reset';
  /** The link's public uuid (spec: uuid of the reset link), checked beside the token. */
  link_id: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface OperationLogsTable {
  id: Generated<number>;
  org_id: number;
  user_id: number | null;
  user_name: string;
  user_type: string;
  action: string;
  /** The text a search matches (the content in every console language); the stored prose of rows older than `detail`. */
  content: string;
  /** The content, structured (JSON of contract `oplog.OperationContent`); null in rows written before migration 035. */
  detail: string | null;
  ip: string;
  created_at: number;
}

/** A user's API token (migration 041): only its SHA-256 is kept. */
export interface ApiTokensTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  name: string;
  token_hash: string;
  /** The token's first characters, to tell tokens apart in a list. */
  hint: string;
  scope: string;
  /** Comma-separated label ids the token is restricted to; empty: none. */
  label_ids: Generated<string>;
  /** SHA-256 of the user's password hash when the token was made: another password ends it. */
  password_stamp: string;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  last_used_ip: string | null;
  created_at: number;
}

export interface AccountTables {
  api_tokens: ApiTokensTable;
  salespeople: SalespeopleTable;
  licenses: LicensesTable;
  account_tokens: AccountTokensTable;
  operation_logs: OperationLogsTable;
}
