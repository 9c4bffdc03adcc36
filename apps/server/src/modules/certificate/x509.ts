import crypto, { X509Certificate } from 'node:crypto';
import { certificate as calls } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';

/** A certificate bundle that passed every check, ready to store and send. */
export interface CheckedCertificate {
  /** The certificates, leaf first, as normalised PEM. */
  pem: string;
  /** SHA-256 (hex) of the certificates' DER bytes in order. */
  sha256: string;
  subject: string;
  issuer: string;
  /** The latest start and the earliest end of validity over the chain. */
  validFrom: number;
  validTo: number;
  chainLength: number;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
/** Any PEM private key: PKCS#8, encrypted PKCS#8, PKCS#1 RSA, SEC1 EC, DSA, OpenSSH. */
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/** "CN=a\nO=b" as "CN=a, O=b". */
export const oneLine = (name: string) =>
  name
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');

const commonName = (cert: X509Certificate) =>
  /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? oneLine(cert.subject);

/** 2026-12-23 20:10 UTC */
const day = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Checks the text of a certificate upload (node:crypto's X509Certificate): PEM certificates only,
 * never a private key; each parses, has a subject and is valid now; each is issued (and signed)
 * by the one after it. Refuses with the first problem found.
 */
export function checkCertificate(text: string, now: number): CheckedCertificate {
  if (PRIVATE_KEY.test(text)) throw new Refusal('certificate.privateKey', 'invalid');
  const blocks = [...text.matchAll(BLOCK)];
  if (!blocks.length || blocks.some((b) => b[1] !== 'CERTIFICATE'))
    throw new Refusal('certificate.invalid', 'invalid');
  if (blocks.length > calls.CERTIFICATE_CHAIN_MAX) throw new Refusal('certificate.tooMany', 'invalid');
  const certs = blocks.map((block) => {
    try {
      return new X509Certificate(block[0]);
    } catch {
      throw new Refusal('certificate.invalid', 'invalid');
    }
  });
  for (const cert of certs) {
    if (!cert.subject.trim()) throw new Refusal('certificate.invalid', 'invalid');
    const from = Date.parse(cert.validFrom);
    const to = Date.parse(cert.validTo);
    if (Number.isNaN(from) || Number.isNaN(to)) throw new Refusal('certificate.invalid', 'invalid');
    if (to <= now)
      throw new Refusal('certificate.expired', 'invalid', { subject: commonName(cert), date: day(to) });
    if (from > now)
      throw new Refusal('certificate.notYetValid', 'invalid', { subject: commonName(cert), date: day(from) });
  }
  for (let i = 0; i + 1 < certs.length; i++) {
    const [cert, issuer] = [certs[i]!, certs[i + 1]!];
    if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey))
      throw new Refusal('certificate.chainBroken', 'invalid', { subject: commonName(cert) });
  }
  const leaf = certs[0]!;
  return {
    pem: certs.map((c) => c.toString().trim()).join('\n') + '\n',
    sha256: crypto
      .createHash('sha256')
      .update(Buffer.concat(certs.map((c) => c.raw)))
      .digest('hex'),
    subject: oneLine(leaf.subject),
    issuer: oneLine(leaf.issuer),
    validFrom: Math.max(...certs.map((c) => Date.parse(c.validFrom))),
    validTo: Math.min(...certs.map((c) => Date.parse(c.validTo))),
    chainLength: certs.length,
  };
}

/** SHA-256 hex as the console shows fingerprints: upper case, in pairs. */
export const fingerprintOf = (sha256: string) => (sha256.toUpperCase().match(/../g) ?? []).join(':');
