import { LocalFileStore } from './local-store.js';
import type { S3Settings } from './s3-store.js';
import type { FileStore } from './store.js';

export type FileStoreSettings =
  | {
      kind: 'local';
      /**
       * Set when nginx sends the files panels download (docs/operations.md, "Downloads sent by
       * nginx"): the internal location that maps to DATA_DIR/files/, e.g. `/_panelfleet_files/`.
       */
      accelRedirect?: string;
    }
  | ({ kind: 's3' } & S3Settings);

/** The store the settings name: DATA_DIR itself by default, or an S3-compatible bucket. */
export async function openFileStore(settings: FileStoreSettings, dataDir: string): Promise<FileStore> {
  if (settings.kind === 'local') return new LocalFileStore(dataDir);
  // The AWS SDK is loaded only by a server that uses it.
  const { S3FileStore } = await import('./s3-store.js');
  return S3FileStore.open(settings);
}
