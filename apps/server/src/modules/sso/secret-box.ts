import crypto from 'node:crypto';

/**
 * Client secrets of identity providers, kept encrypted (AES-256-GCM) with a key derived from the
 * deployment's pepper, so a copy of the database alone does not hold them.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(pepper: string) {
    this.key = crypto.createHmac('sha256', pepper).update('panelfleet sso client secret').digest();
  }

  seal(plain: string): string {
    if (plain === '') return '';
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      sealed.toString('base64'),
    ].join(':');
  }

  open(stored: string): string {
    if (stored === '') return '';
    const [version, iv, tag, sealed] = stored.split(':');
    if (version !== 'v1' || !iv || !tag || sealed === undefined)
      throw new Error('unknown sealed secret format');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
  }
}
