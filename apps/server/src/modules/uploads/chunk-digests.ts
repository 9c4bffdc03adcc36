import crypto from 'node:crypto';

/** The chunk size of APK Signature Scheme v2's content digest. */
export const CONTENT_CHUNK = 1024 * 1024;
/** What v2 hashes before a whole chunk's bytes: 0xa5, then the chunk's length (uint32 LE). */
const WHOLE_CHUNK_PREFIX = Buffer.from([0xa5, 0x00, 0x00, 0x10, 0x00]);

const startChunk = () => crypto.createHash('sha256').update(WHOLE_CHUNK_PREFIX);

/**
 * SHA-256 of every whole MiB of an upload from its first byte, each taken as APK Signature Scheme
 * v2 takes a chunk of the section that starts there (https://source.android.com/docs/security/features/apksigning/v2#integrity-protected-contents):
 * `SHA-256(0xa5 || uint32le(1 MiB) || chunk)`. Fed in order while the bytes stream in, they spare
 * the APK's signature check a second pass over the file: it hashes only what follows the last
 * whole chunk before its signing block (under 1 MiB, plus the central directory).
 */
export class ChunkDigests {
  private readonly whole: Buffer[] = [];
  private current = startChunk();
  private filled = 0;

  update(bytes: Buffer) {
    for (let at = 0; at < bytes.length;) {
      const take = Math.min(CONTENT_CHUNK - this.filled, bytes.length - at);
      this.current.update(at === 0 && take === bytes.length ? bytes : bytes.subarray(at, at + take));
      this.filled += take;
      at += take;
      if (this.filled === CONTENT_CHUNK) {
        this.whole.push(this.current.digest());
        this.current = startChunk();
        this.filled = 0;
      }
    }
  }

  /** The digests of the whole chunks fed so far, chunk 0 first. */
  digests(): readonly Buffer[] {
    return this.whole;
  }
}
