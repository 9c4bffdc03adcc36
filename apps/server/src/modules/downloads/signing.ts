import crypto from 'node:crypto';

/** What a signed download URL grants: one file, to one panel, until a time. */
export interface DownloadGrant {
  /** The file's path relative to the download root. */
  file: string;
  deviceKey: string;
  size: number;
  sha256: string;
  expiresAt: number;
}

const VERSION = 1;

/**
 * HMAC-SHA256 tokens for download URLs. The grant travels in the token itself, so any server
 * instance with the same key serves it and a restart invalidates nothing; tampering with any
 * field breaks the signature.
 */
export class UrlSigner {
  constructor(private readonly key: Buffer) {}

  /** The signing key derived from the server's pepper (shared by every instance of a deployment). */
  static fromPepper(pepper: string) {
    return new UrlSigner(crypto.createHmac('sha256', pepper).update('panelfleet download urls v1').digest());
  }

  sign(grant: DownloadGrant): string {
    const body = Buffer.from(
      JSON.stringify([VERSION, grant.file, grant.deviceKey, grant.size, grant.sha256, grant.expiresAt]),
    ).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The grant of an authentic token (expired or not), or undefined for anything forged or malformed. */
  verify(token: string): DownloadGrant | undefined {
    const dot = token.indexOf('.');
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(body), 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!Array.isArray(fields) || fields[0] !== VERSION || fields.length !== 6) return undefined;
    const [, file, deviceKey, size, sha256, expiresAt] = fields as unknown[];
    if (
      typeof file !== 'string' ||
      typeof deviceKey !== 'string' ||
      typeof size !== 'number' ||
      typeof sha256 !== 'string' ||
      typeof expiresAt !== 'number'
    )
      return undefined;
    return { file, deviceKey, size, sha256, expiresAt };
  }

  private mac(body: string) {
    return crypto.createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
