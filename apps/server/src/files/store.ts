import type { Readable } from 'node:stream';

/** Bytes start..end of a file, both ends included. */
export interface ByteSpan {
  start: number;
  end: number;
}

export interface PutOptions {
  contentType?: string;
  keep?: boolean;
}

/** How a client is sent straight to the store (S3's presigned URL). */
export interface DirectUrlOptions {
  /** How long the URL works; short, since the server checked the caller just before. */
  ttlSeconds: number;
}

/**
 * Where uploaded and served files live, shared by every instance of a deployment: a directory
 * (DATA_DIR by default, or a shared filesystem mounted there) or an S3-compatible bucket. Keys
 * are relative paths the server made (`files/ota/<uuid>.bin`); a key with `..`, an absolute path
 * or other characters is refused with `InvalidKey`. Work that needs a local file (reading an
 * APK, ffmpeg, sharp, hashing while receiving) happens in a work directory first; the finished
 * file then goes in with `putFile`, which takes it away from there.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /**
   * Puts a finished local file in under `key` (replacing one there). The local file is gone
   * afterwards, unless `keep`: then the caller removes it once what the file is for is recorded
   * (so a refusal on the way can still give the bytes back).
   */
  putFile(key: string, localFile: string, options?: PutOptions): Promise<void>;
  putBytes(key: string, bytes: Buffer, contentType?: string): Promise<void>;
  /**
   * Puts the file `sourceKey` of `source` (a part of the same store, e.g. `within('uploads')`) in
   * under `key`, the source staying where it is: a second name on a directory, a copy made by the
   * bucket itself on S3 (no byte passes through the server).
   */
  copyFrom(key: string, source: FileStore, sourceKey: string, options?: PutOptions): Promise<void>;
  /** The file's size, or undefined when there is none under `key`. */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** The file's bytes (or a span of them); rejects with `FileMissing` when there is none. */
  read(key: string, span?: ByteSpan): Promise<Readable>;
  /** The whole file in memory (small files only: thumbnails, icons, avatars), or undefined. */
  readBytes(key: string): Promise<Buffer | undefined>;
  /** Removes the file; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** A short-lived URL to fetch the file from the store itself, or undefined when the server serves it. */
  directUrl(key: string, options: DirectUrlOptions): Promise<string | undefined>;
  /** The file's path on this machine when the store is a directory (served with reused buffers). */
  localPath(key: string): string | undefined;
  /** The same store with every key below `prefix`. */
  within(prefix: string): FileStore;
  /** Lets go of connections (at shutdown). */
  close(): void;
}

export class InvalidKey extends Error {
  constructor(key: string) {
    super(`not a file key of ours: ${JSON.stringify(key)}`);
    this.name = 'InvalidKey';
  }
}

export class FileMissing extends Error {
  constructor(readonly key: string) {
    super(`no file under ${key}`);
    this.name = 'FileMissing';
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/;

/** Checks a key (or prefix): relative, `/`-separated, no empty, `.` or `..` segment. */
export function checkKey(key: string): string {
  const segments = key.split('/');
  if (!key || segments.length > 16 || !segments.every((s) => SEGMENT.test(s) && s !== '..'))
    throw new InvalidKey(key);
  return key;
}

export const joinKey = (prefix: string, key: string) => (prefix ? `${prefix}/${key}` : key);
