import { SignedFields } from '../../security/signed-fields.js';

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
  private readonly tokens: SignedFields;

  constructor(key: Buffer) {
    this.tokens = new SignedFields(key, VERSION);
  }

  /** The signing key derived from the server's pepper (shared by every instance of a deployment). */
  static fromPepper(pepper: string) {
    return new UrlSigner(SignedFields.keyFrom(pepper, 'panelfleet download urls v1'));
  }

  sign(grant: DownloadGrant): string {
    return this.tokens.sign([grant.file, grant.deviceKey, grant.size, grant.sha256, grant.expiresAt]);
  }

  /** The grant of an authentic token (expired or not), or undefined for anything forged or malformed. */
  verify(token: string): DownloadGrant | undefined {
    const fields = this.tokens.open(token, 5);
    if (!fields) return undefined;
    const [file, deviceKey, size, sha256, expiresAt] = fields;
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
}
