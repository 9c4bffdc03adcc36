import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStore, PutOptions } from '../../files/store.js';
import type { UploadRecord } from './repository.js';
import type { UploadArea } from './stores.js';

/** What a kind's call receives when it takes a finished upload. */
export interface ClaimedUpload {
  id: string;
  fileName: string;
  size: number;
  sha256: string;
  /** Empty but for firmware. */
  md5: string;
  /**
   * An APK's v2 content chunks' digests (chunk-digests.ts), taken as its bytes arrived; undefined
   * when this instance did not take them (the signature check then reads the file itself).
   */
  contentChunks: readonly Buffer[] | undefined;
  /** Puts the bytes into `files` under `key`: on a directory a second name, in a bucket a copy the bucket makes. */
  storeAs(files: FileStore, key: string, options?: PutOptions): Promise<void>;
  /** The bytes as a stream. */
  read(): Promise<Readable>;
  /**
   * A file on this machine with the bytes, for work that needs one (reading an APK): the upload's
   * own file on a directory, else a copy in the work directory that `done`, `giveBack` and
   * `discard` remove.
   */
  localFile(): Promise<string>;
  /** The file was made: the upload's bytes and row go. */
  done(): Promise<void>;
  /** The file could not be made: the upload can be claimed again. */
  giveBack(): Promise<void>;
  /** The bytes can never become a file of this kind (not an APK): they and the row go. */
  discard(): Promise<void>;
}

export function claimedUpload(
  row: UploadRecord,
  area: UploadArea,
  workDir: string,
  settle: {
    contentChunks: readonly Buffer[] | undefined;
    forget(): Promise<void>;
    release(): Promise<void>;
  },
): ClaimedUpload {
  let copy: string | undefined;
  const dropCopy = async () => {
    if (copy) await fs.promises.rm(copy, { force: true });
    copy = undefined;
  };
  const removeAll = async () => {
    await dropCopy();
    await area.remove(row.id);
    await settle.forget();
  };
  return {
    id: row.id,
    fileName: row.file_name,
    size: row.size,
    sha256: row.sha256,
    md5: row.md5,
    contentChunks: settle.contentChunks,
    storeAs: (files, key, options) => files.copyFrom(key, area.bytes, row.id, options),
    read: () => area.bytes.read(row.id),
    localFile: async () => {
      const own = area.bytes.localPath(row.id);
      if (own) return own;
      if (copy) return copy;
      await fs.promises.mkdir(workDir, { recursive: true });
      const target = path.join(workDir, `upload-${row.id}-${crypto.randomBytes(6).toString('hex')}`);
      copy = target;
      await pipeline(await area.bytes.read(row.id), fs.createWriteStream(target));
      return target;
    },
    done: removeAll,
    giveBack: async () => {
      await dropCopy();
      await settle.release();
    },
    discard: removeAll,
  };
}
