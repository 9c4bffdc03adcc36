import type { Foundation } from '../../foundation.js';
import { LogRepository } from './repository.js';
import { logRoutes } from './routes.js';
import { LogService } from './service.js';
import type { AbnormalLogUpload } from './upload.js';

/** The operation and abnormal logs; panels upload the latter through the gateway. */
export function installLogs(f: Foundation, needs: { upload: AbnormalLogUpload }): void {
  logRoutes(
    f.router,
    new LogService({ repository: new LogRepository(f.kysely), clock: f.clock, log: f.operations }),
    needs.upload,
  );
}
