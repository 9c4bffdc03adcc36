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
  content: string;
  ip: string;
  created_at: number;
}

export interface AccountTables {
  salespeople: SalespeopleTable;
  licenses: LicensesTable;
  account_tokens: AccountTokensTable;
  operation_logs: OperationLogsTable;
}
