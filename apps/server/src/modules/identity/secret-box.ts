import crypto from 'node:crypto';

/**
 * The TOTP secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the deployment's
 * password pepper (PASSWORD_PEPPER, or the one generated into DATA_DIR). A database read alone
 * gives neither the secrets nor the codes; every instance sharing the database has the same pepper
 * (the deployment's start-up check). Recovery codes are kept as HMAC-SHA256 under the pepper.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(private readonly pepper: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', pepper, 'panelfleet', 'totp secret', 32));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined)
      throw new Error('unknown sealed secret format');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** A recovery code as stored: its HMAC under the pepper (case and dashes do not matter). */
  codeHash(code: string): string {
    return crypto.createHmac('sha256', this.pepper).update(normaliseCode(code)).digest('hex');
  }
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
