import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords arrive as the MD5 hex the browser computed (legacy contract). That value is the
 * password: we store argon2id over HMAC-SHA256(pepper, md5), so a leaked table alone is useless.
 */
export class PasswordHasher {
  private readonly dummyHash: Promise<string>;

  constructor(private readonly pepper: string) {
    this.dummyHash = this.hash('0'.repeat(32));
  }

  private peppered(md5Hex: string): string {
    return crypto.createHmac('sha256', this.pepper).update(md5Hex.toLowerCase()).digest('hex');
  }

  hash(md5Hex: string): Promise<string> {
    return hash(this.peppered(md5Hex), { algorithm: 2 /* argon2id */ });
  }

  async verify(storedHash: string, md5Hex: string): Promise<boolean> {
    try {
      return await verify(storedHash, this.peppered(md5Hex));
    } catch {
      // A stored value that is not an argon2 hash never matches.
      return false;
    }
  }

  /** Spends the time of a real check, so an unknown user name answers as slowly as a known one. */
  async burn(md5Hex: string): Promise<void> {
    await this.verify(await this.dummyHash, md5Hex);
  }
}

export const md5Hex = (plain: string) => crypto.createHash('md5').update(plain).digest('hex');
