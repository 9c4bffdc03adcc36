import crypto from 'node:crypto';
import fs from 'node:fs';
import { Refusal } from '../../refusal.js';

/**
 * The APK Signature Scheme v2/v3 block (https://source.android.com/docs/security/features/apksigning/v2):
 * the signer's certificate, checked the way Android checks it before an install: the signed
 * data's signature verifies with the signer's public key, that key is the certificate's, and the
 * digest of the APK's contents (1 MiB chunks of the entries, central directory and end record)
 * equals the signed one. An APK without such a block (unsigned, or signed with JAR signing only)
 * is refused: its signer could not be compared with the earlier versions'.
 */

const V2_ID = 0x7109871a;
const V3_ID = 0xf05368c0;
const MAGIC = Buffer.from('APK Sig Block 42', 'latin1');
const CHUNK = 1024 * 1024;
const MAX_BLOCK = 16 * 1024 * 1024;

interface Algorithm {
  hash: 'sha256' | 'sha512';
  pss?: number;
}
const ALGORITHMS = new Map<number, Algorithm>([
  [0x0101, { hash: 'sha256', pss: 32 }],
  [0x0102, { hash: 'sha512', pss: 64 }],
  [0x0103, { hash: 'sha256' }],
  [0x0104, { hash: 'sha512' }],
  [0x0201, { hash: 'sha256' }],
  [0x0202, { hash: 'sha512' }],
  [0x0301, { hash: 'sha256' }],
]);

const unsigned = () => new Refusal('apk.unsigned', 'invalid');
const badSignature = () => new Refusal('apk.badSignature', 'invalid');

/** Length-prefixed (uint32 LE) items of a buffer. */
function prefixed(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < buf.length;) {
    if (at + 4 > buf.length) throw badSignature();
    const len = buf.readUInt32LE(at);
    if (at + 4 + len > buf.length) throw badSignature();
    out.push(buf.subarray(at + 4, at + 4 + len));
    at += 4 + len;
  }
  return out;
}

/** One length-prefixed item at `at`; the item and where the next begins. */
function take(buf: Buffer, at: number): [Buffer, number] {
  if (at + 4 > buf.length) throw badSignature();
  const len = buf.readUInt32LE(at);
  if (at + 4 + len > buf.length) throw badSignature();
  return [buf.subarray(at + 4, at + 4 + len), at + 4 + len];
}

async function readAt(fd: fs.promises.FileHandle, position: number, length: number) {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fd.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

/** Where the zip's end record and central directory are. */
async function zipLayout(fd: fs.promises.FileHandle, size: number) {
  const tailLength = Math.min(size, 65_557);
  const tail = await readAt(fd, size - tailLength, tailLength);
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== 0x06054b50) continue;
    if (i + 22 + tail.readUInt16LE(i + 20) !== tail.length) continue;
    const eocd = size - tailLength + i;
    return {
      eocd,
      eocdBytes: tail.subarray(i),
      cdSize: tail.readUInt32LE(i + 12),
      cdOffset: tail.readUInt32LE(i + 16),
    };
  }
  throw new Refusal('apk.notApk', 'invalid', { detail: 'zip' });
}

/**
 * The digest Android computes over the three sections (section 4 is the signing block itself,
 * skipped). `taken`: digests of the file's whole chunks from offset 0 as the upload took them
 * (SHA-256 only), used for the first section's whole chunks instead of reading them again.
 */
async function contentDigest(
  fd: fs.promises.FileHandle,
  hash: 'sha256' | 'sha512',
  sections: Array<{ start: number; end: number } | Buffer>,
  taken: readonly Buffer[],
) {
  const chunks: Buffer[] = [];
  // One buffer for every chunk read: a new megabyte per chunk made V8 collect over and over (docs/benchmarks.md, APK upload).
  const reused = Buffer.allocUnsafe(CHUNK);
  const one = (bytes: Buffer) => {
    const prefix = Buffer.alloc(5);
    prefix[0] = 0xa5;
    prefix.writeUInt32LE(bytes.length, 1);
    chunks.push(crypto.createHash(hash).update(prefix).update(bytes).digest());
  };
  for (const section of sections) {
    if (Buffer.isBuffer(section)) {
      for (let at = 0; at < section.length; at += CHUNK) one(section.subarray(at, at + CHUNK));
      continue;
    }
    let start = section.start;
    if (start === 0 && hash === 'sha256') {
      const whole = Math.min(taken.length, Math.floor(section.end / CHUNK));
      chunks.push(...taken.slice(0, whole));
      start = whole * CHUNK;
    }
    for (let at = start; at < section.end; at += CHUNK) {
      const { bytesRead } = await fd.read(reused, 0, Math.min(CHUNK, section.end - at), at);
      one(reused.subarray(0, bytesRead));
    }
  }
  const head = Buffer.alloc(5);
  head[0] = 0x5a;
  head.writeUInt32LE(chunks.length, 1);
  return crypto.createHash(hash).update(head).update(Buffer.concat(chunks)).digest();
}

export interface Signer {
  scheme: 'v2' | 'v3';
  /** The first certificate of the first signer (DER). */
  certificate: Buffer;
}

/**
 * `contentChunks`: the SHA-256 digests of the file's whole 1 MiB chunks from its first byte, v2's
 * way (uploads/chunk-digests.ts), taken while the upload arrived; without them the content digest
 * reads the whole file.
 */
export async function readSigner(file: string, contentChunks: readonly Buffer[] = []): Promise<Signer> {
  const fd = await fs.promises.open(file, 'r');
  try {
    const size = (await fd.stat()).size;
    const zip = await zipLayout(fd, size);
    if (zip.cdOffset < 32 || zip.cdOffset + zip.cdSize !== zip.eocd) throw unsigned();
    const footer = await readAt(fd, zip.cdOffset - 24, 24);
    if (!footer.subarray(8).equals(MAGIC)) throw unsigned();
    const blockSize = Number(footer.readBigUInt64LE(0));
    if (blockSize > MAX_BLOCK || blockSize < 24 || blockSize + 8 > zip.cdOffset) throw badSignature();
    const blockStart = zip.cdOffset - blockSize - 8;
    const block = await readAt(fd, blockStart, blockSize + 8);
    if (Number(block.readBigUInt64LE(0)) !== blockSize) throw badSignature();
    const pairs = new Map<number, Buffer>();
    for (let at = 8; at < block.length - 24;) {
      const len = Number(block.readBigUInt64LE(at));
      if (len < 4 || at + 8 + len > block.length - 24) throw badSignature();
      pairs.set(block.readUInt32LE(at + 8), block.subarray(at + 12, at + 8 + len));
      at += 8 + len;
    }
    const scheme = pairs.has(V2_ID) ? 'v2' : pairs.has(V3_ID) ? 'v3' : undefined;
    if (!scheme) throw unsigned();
    const [signers] = take(pairs.get(scheme === 'v2' ? V2_ID : V3_ID)!, 0);
    const signer = prefixed(signers)[0];
    if (!signer) throw badSignature();
    let at = 0;
    const [signedData, afterSigned] = take(signer, at);
    at = afterSigned;
    if (scheme === 'v3') at += 8; // minSdk, maxSdk
    const [signatures, afterSignatures] = take(signer, at);
    const [publicKeyDer] = take(signer, afterSignatures);
    const [digests, afterDigests] = take(signedData, 0);
    const [certificates] = take(signedData, afterDigests);
    const certificate = prefixed(certificates)[0];
    if (!certificate) throw badSignature();

    const publicKey = crypto.createPublicKey({ key: publicKeyDer, format: 'der', type: 'spki' });
    let x509: crypto.X509Certificate;
    try {
      x509 = new crypto.X509Certificate(certificate);
    } catch {
      throw badSignature();
    }
    if (!x509.publicKey.export({ format: 'der', type: 'spki' }).equals(publicKeyDer)) throw badSignature();

    const digestOf = new Map<number, Buffer>();
    for (const d of prefixed(digests)) {
      if (d.length < 8) throw badSignature();
      digestOf.set(d.readUInt32LE(0), take(d, 4)[0]);
    }
    let verified: { id: number; algorithm: Algorithm } | undefined;
    for (const s of prefixed(signatures)) {
      if (s.length < 8) throw badSignature();
      const id = s.readUInt32LE(0);
      const algorithm = ALGORITHMS.get(id);
      if (!algorithm || !digestOf.has(id)) continue;
      const [signature] = take(s, 4);
      const ok = crypto.verify(
        algorithm.hash,
        signedData,
        algorithm.pss
          ? { key: publicKey, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: algorithm.pss }
          : publicKey,
        signature,
      );
      if (!ok) throw badSignature();
      verified = { id, algorithm };
      break;
    }
    if (!verified) throw badSignature();
    // The end record as it was signed: the central directory's offset is the signing block's.
    const eocd = Buffer.from(zip.eocdBytes);
    eocd.writeUInt32LE(blockStart, 16);
    const digest = await contentDigest(
      fd,
      verified.algorithm.hash,
      [{ start: 0, end: blockStart }, { start: zip.cdOffset, end: zip.eocd }, eocd],
      contentChunks,
    );
    if (!digest.equals(digestOf.get(verified.id)!)) throw badSignature();
    return { scheme, certificate };
  } finally {
    await fd.close();
  }
}
