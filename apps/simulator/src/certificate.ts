import crypto, { X509Certificate } from 'node:crypto';

const BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The fingerprint of a certificate bundle as the protocol defines it (5.8): SHA-256 over the DER
 * bytes of its certificates in order; undefined when a block is not a certificate.
 */
export function certificateFingerprint(pem: string): string | undefined {
  const blocks = pem.match(BLOCK) ?? [];
  if (!blocks.length) return undefined;
  try {
    const ders = blocks.map((block) => new X509Certificate(block).raw);
    return crypto.createHash('sha256').update(Buffer.concat(ders)).digest('hex');
  } catch {
    return undefined;
  }
}
