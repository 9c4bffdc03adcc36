import { SignedFields } from '../../security/signed-fields.js';

/** What an upload URL grants: one upload of one screenshot, by one panel, within limits, until a time. */
export interface UploadGrant {
  screenshotId: number;
  deviceKey: string;
  maxBytes: number;
  maxWidth: number;
  maxHeight: number;
  expiresAt: number;
}

const VERSION = 1;

/**
 * HMAC-SHA256 tokens of screenshot upload URLs: the grant travels in the token, so any instance
 * with the deployment's pepper checks it; altering any field breaks the signature. Single use is
 * the screenshot row's business (its status is claimed once).
 */
export class UploadTokens {
  private readonly tokens: SignedFields;

  constructor(pepper: string) {
    this.tokens = new SignedFields(SignedFields.keyFrom(pepper, 'panelfleet screenshot uploads v1'), VERSION);
  }

  sign(g: UploadGrant): string {
    return this.tokens.sign([g.screenshotId, g.deviceKey, g.maxBytes, g.maxWidth, g.maxHeight, g.expiresAt]);
  }

  /** The grant of an authentic token (expired or not), or undefined for anything forged or malformed. */
  verify(token: string): UploadGrant | undefined {
    const fields = this.tokens.open(token, 6);
    if (!fields) return undefined;
    const [screenshotId, deviceKey, maxBytes, maxWidth, maxHeight, expiresAt] = fields;
    if (typeof deviceKey !== 'string') return undefined;
    const numbers = [screenshotId, maxBytes, maxWidth, maxHeight, expiresAt];
    if (!numbers.every((n) => typeof n === 'number' && Number.isSafeInteger(n))) return undefined;
    return {
      screenshotId: screenshotId as number,
      deviceKey,
      maxBytes: maxBytes as number,
      maxWidth: maxWidth as number,
      maxHeight: maxHeight as number,
      expiresAt: expiresAt as number,
    };
  }
}
