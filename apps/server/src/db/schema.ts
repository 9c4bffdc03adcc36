import type { Generated } from 'kysely';

/** Times are epoch milliseconds everywhere (INTEGER in SQLite, BIGINT in PostgreSQL). */

export interface OrganisationsTable {
  id: Generated<number>;
  parent_id: number | null;
  kind: 'platform' | 'distributor' | 'customer';
  name: string;
  user_quota: number;
  created_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  org_id: number;
  user_name: string;
  /** argon2id over HMAC(pepper, md5-from-browser). */
  password_hash: string;
  user_type: '0' | '1' | '2' | '3' | '4';
  /** Activation: 0 inactive, 1 active. */
  activated: number;
  /** Account state: 1 enabled, 0 disabled. */
  enabled: number;
  phone: Generated<string>;
  email: Generated<string>;
  remark: Generated<string>;
  avatar: Generated<string>;
  /** Program role: 0 creator, 1 and 2 approvers. */
  program_role: number;
  valid_begin: number | null;
  valid_end: number | null;
  created_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token; the token itself is never stored. */
  id: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  ip: string;
}

export interface CaptchasTable {
  /** SHA-256 of the browser's captcha cookie. */
  id: string;
  answer: string;
  expires_at: number;
}

export interface LoginFailuresTable {
  /** 'user:<name>' or 'ip:<address>'. */
  key: string;
  count: number;
  first_at: number;
}

export interface Database {
  organisations: OrganisationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  login_failures: LoginFailuresTable;
}
