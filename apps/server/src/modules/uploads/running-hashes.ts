import crypto from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { ChunkDigests } from './chunk-digests.js';

export interface Digests {
  sha256: string;
  /** Empty for kinds whose MD5 nobody reads (only firmware shows one: the OTA file's fileMd5). */
  md5: string;
}

/** What a kind hashes besides the SHA-256: MD5 (firmware), the v2 content chunks (APKs). */
export interface HashKinds {
  md5: boolean;
  chunks: boolean;
}

interface RunningHash {
  offset: number;
  sha256: crypto.Hash;
  md5: crypto.Hash | undefined;
  chunks: ChunkDigests | undefined;
  usedAt: number;
}

/** A part carried more bytes than its upload announced. */
export class BeyondLength extends Error {
  constructor() {
    super('more bytes than the upload announced');
    this.name = 'BeyondLength';
  }
}

/** One part on its way to the store: the bytes pass through `stream`, hashed when the hash reaches them. */
export interface HashedPart {
  stream: Transform;
  /** Bytes that passed so far. */
  bytes(): number;
  /** After the store wrote the part: keeps the running hash if it covers exactly the stored bytes. */
  settle(storedOffset: number): void;
}

const IDLE_MS = 60 * 60_000;
/** Chunk digests of complete uploads wait as long as an unclaimed upload does (the sweep's day). */
const FINISHED_MS = 24 * 60 * 60_000;

/**
 * The SHA-256 (and MD5 where the kind uses it) of each upload, taken while its bytes stream in.
 * This instance keeps the running hashes of the uploads it receives, with the offset each covers:
 * a part that starts where its hash ends continues it. A part that starts anywhere else (the part
 * before went to another instance, a write broke off) is stored unhashed and ends this instance's
 * hash of that upload; the digests are then read back once from the stored bytes when the upload
 * is complete (the one pass a lost running hash costs, also after a restart). node:crypto's state
 * cannot leave its process, and an exportable one (hash-wasm) hashed 5x slower here than OpenSSL:
 * docs/operations.md ("Files") has the figures.
 *
 * For APKs the same pass also takes the v2 content chunks' digests (chunk-digests.ts), kept here
 * from completion until the upload is claimed, so that the signature check does not read the file
 * again; an instance that does not hold them (another received the end, or it restarted since)
 * leaves the check to read the file once itself.
 */
export class RunningHashes {
  private readonly running = new Map<string, RunningHash>();
  private readonly finished = new Map<string, { chunks: readonly Buffer[]; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The pass-through for a part of upload `id` from `offset`, refusing bytes past `limit`. */
  part(id: string, offset: number, options: HashKinds & { limit: number }): HashedPart {
    let hash = this.running.get(id);
    // Until the store has the part, this instance's hash of the upload is unknown.
    this.running.delete(id);
    if (offset === 0)
      hash = {
        offset: 0,
        sha256: crypto.createHash('sha256'),
        md5: options.md5 ? crypto.createHash('md5') : undefined,
        chunks: options.chunks ? new ChunkDigests() : undefined,
        usedAt: 0,
      };
    const current = hash?.offset === offset ? hash : undefined;
    let bytes = 0;
    const stream = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (bytes + chunk.length > options.limit) return callback(new BeyondLength());
        bytes += chunk.length;
        if (current) {
          current.sha256.update(chunk);
          current.md5?.update(chunk);
          current.chunks?.update(chunk);
          current.offset += chunk.length;
        }
        callback(null, chunk);
      },
    });
    return {
      stream,
      bytes: () => bytes,
      settle: (storedOffset) => {
        if (current?.offset !== storedOffset) return;
        current.usedAt = this.now();
        this.running.set(id, current);
      },
    };
  }

  /**
   * The digests of a complete upload of `size` bytes: this instance's running hashes when they
   * cover it, else the stored bytes read back once (SHA-256, MD5 and chunks in that one pass).
   */
  async digests(
    id: string,
    size: number,
    kinds: HashKinds,
    readBack: () => Promise<Readable>,
  ): Promise<Digests> {
    let hash = this.running.get(id);
    this.running.delete(id);
    if (hash?.offset !== size) {
      hash = {
        offset: 0,
        sha256: crypto.createHash('sha256'),
        md5: kinds.md5 ? crypto.createHash('md5') : undefined,
        chunks: kinds.chunks ? new ChunkDigests() : undefined,
        usedAt: 0,
      };
      for await (const chunk of await readBack()) {
        hash.sha256.update(chunk as Buffer);
        hash.md5?.update(chunk as Buffer);
        hash.chunks?.update(chunk as Buffer);
        hash.offset += (chunk as Buffer).length;
      }
      if (hash.offset !== size) throw new Error(`upload ${id} holds ${hash.offset} bytes, expected ${size}`);
    }
    if (hash.chunks) this.finished.set(id, { chunks: hash.chunks.digests(), at: this.now() });
    return { sha256: hash.sha256.digest('hex'), md5: hash.md5?.digest('hex') ?? '' };
  }

  /** The v2 content chunks' digests of complete upload `id` (chunk-digests.ts), when this instance took them. */
  contentChunks(id: string): readonly Buffer[] | undefined {
    return this.finished.get(id)?.chunks;
  }

  forget(id: string) {
    this.running.delete(id);
    this.finished.delete(id);
  }

  /**
   * Drops hashes no part continued for an hour (their uploads went on at another instance, or
   * stopped), and chunk digests of uploads no one claimed for a day.
   */
  prune() {
    const before = this.now() - IDLE_MS;
    for (const [id, hash] of this.running) if (hash.usedAt < before) this.running.delete(id);
    const claimBefore = this.now() - FINISHED_MS;
    for (const [id, held] of this.finished) if (held.at < claimBefore) this.finished.delete(id);
  }

  get size() {
    return this.running.size + this.finished.size;
  }
}
