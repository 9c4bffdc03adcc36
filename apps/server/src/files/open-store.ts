import { LocalFileStore } from './local-store.js';
import { S3FileStore, type S3Settings } from './s3-store.js';
import type { FileStore } from './store.js';

export type FileStoreSettings = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

/** The store the settings name: DATA_DIR itself by default, or an S3-compatible bucket. */
export function openFileStore(settings: FileStoreSettings, dataDir: string): FileStore {
  return settings.kind === 's3' ? S3FileStore.open(settings) : new LocalFileStore(dataDir);
}
