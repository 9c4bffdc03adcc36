import crypto from 'node:crypto';

/**
 * Secrets the server must use again later (webhook signing secrets, TOTP secrets, identity
 * providers' client secrets and refresh tokens), sealed at rest with AES-256-GCM under a key
 * derived (HKDF-SHA256) from the deployment's password pepper, which every instance shares and
 * which is not stored in the database. A copy of the database alone does not reveal them. Each
 * use names its purpose, which gives it a key of its own: a secret sealed for one purpose does
 * not open for another. Sealed form: `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export class SecretSealer {
  private readonly key: Buffer;

  constructor(pepper: string, purpose: string) {
    this.key = Buffer.from(
      crypto.hkdfSync('sha256', Buffer.from(pepper, 'utf8'), Buffer.alloc(0), `panelfleet ${purpose}`, 32),
    );
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
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
