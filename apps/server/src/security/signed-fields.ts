import crypto from 'node:crypto';

/**
 * Tokens that carry their own fields, signed with HMAC-SHA256: `<base64url JSON array>.<mac>`.
 * Any server instance with the same key checks one, a restart invalidates none, and altering a
 * field breaks the signature. The first field is the token format's version.
 */
export class SignedFields {
  constructor(
    private readonly key: Buffer,
    private readonly version: number,
  ) {}

  /** A key for one purpose, derived from the deployment's pepper (shared by every instance). */
  static keyFrom(pepper: string, purpose: string): Buffer {
    return crypto.createHmac('sha256', pepper).update(purpose).digest();
  }

  sign(fields: unknown[]): string {
    const body = Buffer.from(JSON.stringify([this.version, ...fields])).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /**
   * The fields of an authentic token of this version with `count` fields (expired or not, the
   * caller judges), or undefined for anything forged or malformed.
   */
  open(token: string, count: number): unknown[] | undefined {
    const dot = token.indexOf('.');
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(body), 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
    const fields = parseArray(Buffer.from(body, 'base64url').toString('utf8'));
    if (!fields || fields.length !== count + 1 || fields[0] !== this.version) return undefined;
    return fields.slice(1);
  }

  private mac(body: string) {
    return crypto.createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

/** A JSON array, or undefined for text that is not one (a signed body is ours, so this is defensive). */
function parseArray(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
