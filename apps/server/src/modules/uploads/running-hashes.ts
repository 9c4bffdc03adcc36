import crypto from 'node:crypto';
import { Transform, type Readable } from 'node:stream';

export interface Digests {
  sha256: string;
  /** Empty for kinds whose MD5 nobody reads (only firmware shows one: the OTA file's fileMd5). */
  md5: string;
}

interface RunningHash {
  offset: number;
  sha256: crypto.Hash;
  md5: crypto.Hash | undefined;
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

/**
 * The SHA-256 (and MD5 where the kind uses it) of each upload, taken while its bytes stream in.
 * This instance keeps the running hashes of the uploads it receives, with the offset each covers:
 * a part that starts where its hash ends continues it. A part that starts anywhere else (the part
 * before went to another instance, a write broke off) is stored unhashed and ends this instance's
 * hash of that upload; the digests are then read back once from the stored bytes when the upload
 * is complete. node:crypto's state cannot leave its process, and an exportable one (hash-wasm) hashed
 * 5x slower here than OpenSSL: docs/operations.md ("Files") has the figures.
 */
export class RunningHashes {
  private readonly running = new Map<string, RunningHash>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The pass-through for a part of upload `id` from `offset`, refusing bytes past `limit`. */
  part(id: string, offset: number, options: { md5: boolean; limit: number }): HashedPart {
    let hash = this.running.get(id);
    // Until the store has the part, this instance's hash of the upload is unknown.
    this.running.delete(id);
    if (offset === 0)
      hash = {
        offset: 0,
        sha256: crypto.createHash('sha256'),
        md5: options.md5 ? crypto.createHash('md5') : undefined,
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
   * cover it, else the stored bytes read back once.
   */
  async digests(id: string, size: number, md5: boolean, readBack: () => Promise<Readable>): Promise<Digests> {
    const held = this.running.get(id);
    this.running.delete(id);
    if (held?.offset === size)
      return { sha256: held.sha256.digest('hex'), md5: held.md5?.digest('hex') ?? '' };
    const sha256 = crypto.createHash('sha256');
    const md5Hash = md5 ? crypto.createHash('md5') : undefined;
    let read = 0;
    for await (const chunk of await readBack()) {
      sha256.update(chunk as Buffer);
      md5Hash?.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    }
    if (read !== size) throw new Error(`upload ${id} holds ${read} bytes, expected ${size}`);
    return { sha256: sha256.digest('hex'), md5: md5Hash?.digest('hex') ?? '' };
  }

  forget(id: string) {
    this.running.delete(id);
  }

  /** Drops hashes no part continued for an hour (their uploads went on at another instance, or stopped). */
  prune() {
    const before = this.now() - IDLE_MS;
    for (const [id, hash] of this.running) if (hash.usedAt < before) this.running.delete(id);
  }

  get size() {
    return this.running.size;
  }
}
