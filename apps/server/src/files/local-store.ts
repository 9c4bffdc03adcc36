import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { checkKey, FileMissing, joinKey, type ByteSpan, type FileStore, type PutOptions } from './store.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The store as a directory: DATA_DIR by default, today's layout (DATA_DIR/files/ota/…,
 * DATA_DIR/avatars/…). Several instances share it when it is one filesystem mounted on each.
 * The server serves its files itself, so there is no direct URL.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;

  constructor(
    private readonly root: string,
    private readonly prefix = '',
  ) {}

  within(prefix: string): FileStore {
    return new LocalFileStore(this.root, joinKey(this.prefix, checkKey(prefix)));
  }

  private pathOf(key: string) {
    return path.join(this.root, ...joinKey(this.prefix, checkKey(key)).split('/'));
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async putFile(key: string, localFile: string, options: PutOptions = {}): Promise<void> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rm(target, { force: true });
    try {
      // A rename, or a second name for the same bytes when the caller keeps its own: never a copy.
      if (options.keep) await fs.promises.link(localFile, target);
      else await fs.promises.rename(localFile, target);
    } catch (error) {
      // The work directory may be another filesystem than a shared store: copy, then remove.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM') throw error;
      await fs.promises.copyFile(localFile, target);
      if (!options.keep) await fs.promises.rm(localFile, { force: true });
    }
  }

  async copyFrom(key: string, source: FileStore, sourceKey: string, options: PutOptions = {}): Promise<void> {
    const from = source.localPath(sourceKey);
    if (!from) throw new Error('a directory store copies only from a directory');
    if (!(await source.stat(sourceKey))) throw new FileMissing(sourceKey);
    await this.putFile(key, from, { ...options, keep: true });
  }

  async putBytes(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, bytes);
  }

  async stat(key: string) {
    const stat = await fs.promises.stat(this.pathOf(key)).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    return stat?.isFile() ? { size: stat.size } : undefined;
  }

  async read(key: string, span?: ByteSpan): Promise<Readable> {
    const file = this.pathOf(key);
    // Opened first, so a missing file rejects here rather than as a stream error later.
    const handle = await fs.promises.open(file, 'r').catch((error: unknown) => {
      if (isMissing(error)) throw new FileMissing(key);
      throw error;
    });
    return handle.createReadStream({ start: span?.start, end: span?.end, highWaterMark: 1024 * 1024 });
  }

  async readBytes(key: string) {
    return fs.promises.readFile(this.pathOf(key)).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
  }

  async delete(key: string) {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async directUrl(): Promise<undefined> {
    return undefined;
  }

  close() {}
}
