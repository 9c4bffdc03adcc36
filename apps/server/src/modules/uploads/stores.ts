import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore as TusFileStore } from '@tus/file-store';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import { ERRORS, type DataStore, type KvStore } from '@tus/utils';
import { s3ClientConfig, type S3Settings } from '../../files/s3-store.js';
import type { FileStoreSettings } from '../../files/open-store.js';
import type { FileStore } from '../../files/store.js';

const ID_PATTERN = /^[0-9a-f]{32}$/;

/**
 * Where uploads in progress keep their bytes: tus's store while they arrive, and the file store's
 * `uploads/` area (`<id>`) once complete, from which a kind's call takes them.
 */
export interface UploadArea {
  readonly tus: DataStore;
  readonly bytes: FileStore;
  /** Every instance reaches the bytes (the bucket); else only the instance that received them. */
  readonly shared: boolean;
  /** Bytes received so far, or undefined when they are not on this instance (or gone). */
  offset(id: string): Promise<number | undefined>;
  remove(id: string): Promise<void>;
  /** Ids whose bytes are here though no row may know them (the sweep's candidates), with their age. */
  strays(now: number): Promise<Array<{ id: string; ageMs: number }>>;
}

/** tus's file store writing each part straight to its file (tus's own write adds a counting stage). */
class DirectoryUploadStore extends TusFileStore {
  constructor(private readonly root: string) {
    super({ directory: root });
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const out = fs.createWriteStream(path.join(this.root, id), { flags: 'r+', start: offset });
    await pipeline(readable, out);
    return offset + out.bytesWritten;
  }
}

class DirectoryArea implements UploadArea {
  readonly shared = false;
  readonly tus: DirectoryUploadStore;

  constructor(
    private readonly root: string,
    readonly bytes: FileStore,
  ) {
    fs.mkdirSync(root, { recursive: true });
    this.tus = new DirectoryUploadStore(root);
  }

  async offset(id: string) {
    const stat = await fs.promises.stat(path.join(this.root, id)).catch(() => undefined);
    return stat?.size;
  }

  async remove(id: string) {
    await fs.promises.rm(path.join(this.root, id), { force: true });
    await fs.promises.rm(path.join(this.root, `${id}.json`), { force: true });
  }

  async strays(now: number) {
    const names = await fs.promises.readdir(this.root);
    const ids = [...new Set(names.map((n) => n.replace(/\.json$/, '')).filter((n) => ID_PATTERN.test(n)))];
    const found = [];
    for (const id of ids) {
      const stat = await fs.promises.stat(path.join(this.root, id)).catch(() => undefined);
      found.push({ id, ageMs: stat ? now - stat.mtimeMs : Infinity });
    }
    return found;
  }
}

/** s3-store's per-instance cache of an upload's S3 multipart id, kept to the most recent uploads. */
class RecentUploads implements KvStore<MetadataValue> {
  private readonly entries = new Map<string, MetadataValue>();

  constructor(private readonly limit: number) {}

  async get(key: string) {
    return this.entries.get(key);
  }

  async set(key: string, value: MetadataValue) {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  async delete(key: string) {
    this.entries.delete(key);
  }
}

const isMissing = (error: unknown) =>
  ['NoSuchUpload', 'NoSuchKey', 'NotFound'].includes((error as { name?: string }).name ?? '');

/**
 * `@tus/s3-store` under the bucket's `uploads/` prefix: a part of at least 5 MiB (S3's smallest
 * part but the last) becomes a part of the upload's multipart upload, a shorter one waits as
 * `<id>.part` until the next PATCH; `<id>.info` holds the upload's length and metadata. So any
 * instance takes any part, and the completed object is `uploads/<id>`.
 */
class BucketUploadStore extends S3Store {
  constructor(settings: S3Settings, prefix: string) {
    super({
      partSize: 8 * 1024 * 1024,
      cache: new RecentUploads(1000),
      s3ClientConfig: { ...s3ClientConfig(settings), bucket: settings.bucket },
    });
    // s3-store names its objects by the upload id alone; every key it sends goes below `prefix`.
    this.client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { Key?: string; Delete?: { Objects?: Array<{ Key?: string }> } };
        const under = (key: string | undefined) => (key === undefined ? key : `${prefix}/${key}`);
        const moved = {
          ...input,
          ...(input.Key !== undefined ? { Key: under(input.Key) } : {}),
          ...(input.Delete?.Objects
            ? {
                Delete: {
                  ...input.Delete,
                  Objects: input.Delete.Objects.map((o) => ({ ...o, Key: under(o.Key) })),
                },
              }
            : {}),
        };
        return next({ ...args, input: moved as typeof args.input });
      },
      { step: 'initialize', name: 'panelfleetUploadPrefix' },
    );
  }

  /** Cancels an upload in progress or removes a complete one (s3-store's own remove fails on the latter). */
  override async remove(id: string): Promise<void> {
    const metadata = await this.getMetadata(id).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    if (metadata?.['upload-id'])
      await this.client
        .abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: metadata['upload-id'] })
        .catch((error: unknown) => {
          if (!isMissing(error)) throw error;
        });
    for (const key of [id, this.infoKey(id), this.partKey(id, true)])
      await this.client.deleteObject({ Bucket: this.bucket, Key: key });
    await this.clearCache(id);
  }
}

class BucketArea implements UploadArea {
  readonly shared = true;
  readonly tus: BucketUploadStore;

  constructor(
    settings: S3Settings,
    readonly bytes: FileStore,
  ) {
    this.tus = new BucketUploadStore(settings, 'uploads');
  }

  async offset(id: string) {
    try {
      return (await this.tus.getUpload(id)).offset;
    } catch (error) {
      if (error === ERRORS.FILE_NOT_FOUND) return undefined;
      throw error;
    }
  }

  remove(id: string) {
    return this.tus.remove(id);
  }

  // Listing the bucket is not among the rights the servers' key needs; rows lead every removal.
  async strays() {
    return [];
  }
}

/** The area that goes with the file store: DATA_DIR/uploads, or the bucket's `uploads/`. */
export function openUploadArea(settings: FileStoreSettings, files: FileStore, dataDir: string): UploadArea {
  const bytes = files.within('uploads');
  return settings.kind === 's3'
    ? new BucketArea(settings, bytes)
    : new DirectoryArea(path.join(dataDir, 'uploads'), bytes);
}
