import type { Foundation } from '../../foundation.js';
import { downloadRoutes } from './routes.js';
import { DownloadService } from './service.js';
import { UrlSigner } from './signing.js';

export type { DownloadService };

/** Files panels fetch (OTA, APK, materials, programs) from the store's files area, over signed URLs. */
export function installDownloads(f: Foundation): DownloadService {
  const downloads = new DownloadService(
    f.fileStore.within('files'),
    UrlSigner.fromPepper(f.pepper),
    f.config.baseUrl,
    f.clock,
    f.config.files.kind === 'local' ? f.config.files.accelRedirect : undefined,
  );
  downloadRoutes(f.router, downloads);
  return downloads;
}
