import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';

interface HashState {
  offset: number;
  sha256: crypto.Hash;
  md5: crypto.Hash;
}

export interface Digests {
  sha256: string;
  md5: string;
}

/**
 * tus's file store, hashing the bytes (SHA-256 and MD5) as they stream to disk. The running hashes
 * live in memory, keyed by upload, with the offset they cover; after a restart, or a write that
 * broke off in the middle, they are rebuilt once from the bytes already on disk and streaming goes
 * on from there. Nothing is ever held in memory but a chunk in flight.
 */
export class HashingFileStore extends FileStore {
  private readonly hashes = new Map<string, HashState>();

  constructor(private readonly root: string) {
    super({ directory: root });
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let state = this.hashes.get(id);
    if (!state || state.offset !== offset) state = await this.rebuild(id, offset);
    // Until this write ends well, the state is unknown: a failure drops it (rebuilt on the next write).
    this.hashes.delete(id);
    const current = state;
    const tee = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        current.sha256.update(chunk);
        current.md5.update(chunk);
        current.offset += chunk.length;
        callback(null, chunk);
      },
    });
    readable.on('error', (err) => tee.destroy(err));
    const next = await super.write(readable.pipe(tee), id, offset);
    if (current.offset === next) this.hashes.set(id, current);
    return next;
  }

  /** The hashes of a complete upload of `size` bytes (rebuilt from disk if the running ones are gone). */
  async digests(id: string, size: number): Promise<Digests> {
    let state = this.hashes.get(id);
    if (!state || state.offset !== size) state = await this.rebuild(id, size);
    this.hashes.delete(id);
    return { sha256: state.sha256.digest('hex'), md5: state.md5.digest('hex') };
  }

  forget(id: string) {
    this.hashes.delete(id);
  }

  private async rebuild(id: string, offset: number): Promise<HashState> {
    const state: HashState = {
      offset: 0,
      sha256: crypto.createHash('sha256'),
      md5: crypto.createHash('md5'),
    };
    if (offset > 0) {
      await pipeline(
        fs.createReadStream(path.join(this.root, id), {
          start: 0,
          end: offset - 1,
          highWaterMark: 1024 * 1024,
        }),
        async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) {
            state.sha256.update(chunk);
            state.md5.update(chunk);
            state.offset += chunk.length;
          }
        },
      );
      if (state.offset !== offset)
        throw new Error(`upload ${id} holds ${state.offset} bytes, expected ${offset}`);
    }
    return state;
  }
}
