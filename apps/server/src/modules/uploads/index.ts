import { materials as materialsContract } from '@panelfleet/contract';
import type { Foundation } from '../../foundation.js';
import { UploadClaims, UploadRepository } from './repository.js';
import { uploadRoutes } from './routes.js';
import { UploadService } from './service.js';

export type { UploadService };

/** Resumable uploads (tus) of firmware, APKs and videos; swept once the rollout engine starts. */
export function installUploads(f: Foundation): UploadService {
  const { config, kysely } = f;
  const uploads = new UploadService({
    dataDir: config.dataDir,
    files: f.fileStore,
    fileSettings: config.files,
    limits: {
      firmware: config.uploadMaxFirmwareBytes,
      apk: config.uploadMaxApkBytes,
      video: materialsContract.VIDEO_MAX_BYTES,
    },
    repository: new UploadRepository(kysely),
    claims: new UploadClaims(kysely),
    clock: f.clock,
    logError: f.logError,
  });
  uploadRoutes(f.http, f.router, uploads);
  return uploads;
}
