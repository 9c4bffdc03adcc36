import crypto from 'node:crypto';

/**
 * Recovery codes of the second factor. A code is kept as its HMAC-SHA256 under the deployment's
 * pepper (a database read alone gives no code); the TOTP secret itself is sealed with the
 * server's SecretSealer (security/sealed.ts).
 */
export type RecoveryCodeHash = (code: string) => string;

/** A recovery code as stored: its HMAC under the pepper (case and dashes do not matter). */
export function recoveryCodeHasher(pepper: string): RecoveryCodeHash {
  return (code) => crypto.createHmac('sha256', pepper).update(normaliseCode(code)).digest('hex');
}

export const normaliseCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** Ten recovery codes of 50 random bits each, written xxxxx-xxxxx (base32 letters and digits). */
export function newRecoveryCodes(count = 10): string[] {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  return Array.from({ length: count }, () => {
    const bytes = crypto.randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}
