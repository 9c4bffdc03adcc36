import type { ColumnType, Generated } from 'kysely';

export interface SsoProvidersTable {
  id: Generated<number>;
  org_id: number;
  enabled: number;
  display_name: string;
  issuer: string;
  client_id: string;
  /** Sealed (security/sealed.ts, purpose "sso client secrets"), '' when none; never returned. */
  client_secret: string;
  /** Allowed e-mail domains, comma-separated, lower case. */
  email_domains: string;
  /** JSON: the contract's `SsoMapping[]`. */
  mappings: string;
  jit: number;
  sso_only: number;
  break_glass_user_id: number | null;
  updated_at: number;
}

export interface SsoLoginsTable {
  id: string;
  browser: string;
  provider_id: number;
  nonce: string;
  verifier: string;
  return_to: string;
  created_at: number;
}

export interface SsoIdentitiesTable {
  provider_id: number;
  subject: string;
  user_id: number;
  created_at: number;
  /** The provider's last refresh token, sealed ("sso refresh tokens"); null when it gave none. */
  refresh_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the provider last answered for the user (sign-in or the check). */
  checked_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** 1: the provider ended the user's grant; password sign-in refused until a sign-in through it. */
  needs_sign_in: ColumnType<number, number | undefined, number>;
}

export interface SsoSessionsTable {
  session_id: string;
  provider_id: number;
  user_id: number;
  created_at: number;
}

export interface SsoTables {
  sso_providers: SsoProvidersTable;
  sso_logins: SsoLoginsTable;
  sso_identities: SsoIdentitiesTable;
  sso_sessions: SsoSessionsTable;
}
