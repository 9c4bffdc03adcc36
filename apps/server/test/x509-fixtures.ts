import crypto from 'node:crypto';

/**
 * X.509 certificates made on the spot for tests (node:crypto cannot issue them): a minimal DER
 * encoder of RFC 5280's TBSCertificate, signed with ECDSA P-256 / SHA-256. Any validity window,
 * self-signed or issued by another fixture, so expired, not-yet-valid and chained certificates
 * need no files and no openssl.
 */

export interface Issued {
  pem: string;
  /** The certificate's own private key (to issue others with), never part of `pem`. */
  key: crypto.KeyObject;
  subject: string;
}

export interface CertificateSpec {
  subject: string;
  issuer?: Issued;
  notBefore: Date;
  notAfter: Date;
  /** A CA certificate (basicConstraints cA true) that may issue others. */
  ca?: boolean;
}

const length = (n: number) => {
  if (n < 128) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 255);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, content: Buffer) =>
  Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);

function integer(value: Buffer | number) {
  let bytes = typeof value === 'number' ? Buffer.from([value]) : value;
  while (bytes.length > 1 && bytes[0] === 0 && bytes[1]! < 0x80) bytes = bytes.subarray(1);
  if (bytes[0]! >= 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

function oid(dotted: string) {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const part of rest) {
    const chunk: number[] = [part & 127];
    for (let v = part >> 7; v > 0; v >>= 7) chunk.unshift((v & 127) | 128);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime for 1950-2049, GeneralizedTime otherwise (RFC 5280 4.1.2.5). */
function time(date: Date) {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`));
}

const name = (commonName: string) =>
  seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

export const toPem = (der: Buffer, label = 'CERTIFICATE') =>
  `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

export function makeCertificate(spec: CertificateSpec): Issued {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const extensions = spec.ca
    ? [
        explicit(
          3,
          seq(
            seq(
              oid('2.5.29.19'),
              tlv(0x01, Buffer.from([0xff])),
              tlv(0x04, seq(tlv(0x01, Buffer.from([0xff])))),
            ),
          ),
        ),
      ]
    : [];
  const tbs = seq(
    explicit(0, integer(2)),
    integer(crypto.randomBytes(12)),
    ECDSA_SHA256,
    name(spec.issuer?.subject ?? spec.subject),
    seq(time(spec.notBefore), time(spec.notAfter)),
    name(spec.subject),
    publicKey.export({ type: 'spki', format: 'der' }),
    ...extensions,
  );
  const signature = crypto.sign('sha256', tbs, spec.issuer?.key ?? privateKey);
  const der = seq(tbs, ECDSA_SHA256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return { pem: toPem(der), key: privateKey, subject: spec.subject };
}

const DAY = 86_400_000;

/** A certificate valid from yesterday for `days` days (self-signed unless an issuer is given). */
export const validCertificate = (subject: string, days = 365, issuer?: Issued, now = Date.now()) =>
  makeCertificate({
    subject,
    issuer,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + days * DAY),
    ca: !issuer,
  });

/** A CA and a leaf it issued: `chain` is the leaf, then the CA. */
export function certificateChain(leafSubject: string, caSubject: string, now = Date.now()) {
  const ca = validCertificate(caSubject, 3650, undefined, now);
  const leaf = validCertificate(leafSubject, 365, ca, now);
  return { ca, leaf, chain: leaf.pem + ca.pem };
}

/** The SHA-256 of a bundle as the protocol defines it: over the certificates' DER bytes, in order. */
export function bundleSha256(pem: string) {
  const ders = (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map(
    (block) => new crypto.X509Certificate(block).raw,
  );
  return crypto.createHash('sha256').update(Buffer.concat(ders)).digest('hex');
}
