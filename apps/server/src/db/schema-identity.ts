/** The second factor and the sign-in step that waits for it (migration 044). */

export interface SecondFactorsTable {
  user_id: number;
  /** The TOTP secret sealed with AES-256-GCM under a key derived from the pepper. */
  secret: string;
  /** Null while enrolment waits for its first code. */
  confirmed_at: number | null;
  /** The newest 30-second step a code was accepted for (a code counts once). */
  last_step: number;
  created_at: number;
}

export interface RecoveryCodesTable {
  user_id: number;
  /** HMAC-SHA256(pepper, code), hex. */
  code_hash: string;
  used_at: number | null;
}

/** A sign-in whose password was right and that waits for its second step. */
export interface SignInStepsTable {
  /** SHA-256 of the step cookie's token. */
  id: string;
  user_id: number;
  /** How the first step was made: `password` (OIDC later). */
  method: string;
  expires_at: number;
}

export interface IdentityTables {
  second_factors: SecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_steps: SignInStepsTable;
}
