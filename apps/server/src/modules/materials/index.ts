import path from 'node:path';
import type { Foundation } from '../../foundation.js';
import type { DownloadService } from '../downloads/service.js';
import type { UploadService } from '../uploads/service.js';
import { MaterialRepository } from './repository.js';
import { materialRoutes } from './routes.js';
import { MaterialService } from './service.js';

export type { MaterialService };

/** Audio, images and videos (poster frames by ffmpeg) that notices and programs play. */
export function installMaterials(
  f: Foundation,
  needs: {
    downloads: DownloadService;
    uploads: UploadService;
    /** Whether a program plays the material (programs/index.ts; programs depend on materials). */
    inUse: (orgId: number, materialId: number) => Promise<boolean>;
  },
): MaterialService {
  const { config, log } = f;
  const materials = new MaterialService({
    repository: new MaterialRepository(f.kysely),
    log: f.operations,
    clock: f.clock,
    files: needs.downloads.files,
    workDir: path.join(f.workDir, 'materials'),
    inUse: needs.inUse,
    poster: { ffmpegPath: config.ffmpegPath, timeoutMs: 15_000 },
    logWarn: (message) => log.warn(message),
  });
  materialRoutes(f.router, materials, needs.uploads);
  return materials;
}
