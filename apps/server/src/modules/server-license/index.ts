import type { Foundation } from '../../foundation.js';
import { ServerIdentityRepository } from './repository.js';
import { serverLicenseRoutes } from './routes.js';
import { ServerLicense } from './service.js';

export type { ServerLicense };

/** Private deployment: the server license, reported to the platform periodically. */
export function installServerLicense(f: Foundation): ServerLicense {
  const serverLicense = new ServerLicense({
    identity: new ServerIdentityRepository(f.kysely),
    clock: f.clock,
    log: f.log,
    platformUrl: f.config.platformUrl,
    reportIntervalMs: f.config.serverReportIntervalMs,
  });
  serverLicenseRoutes(f.router, serverLicense);
  serverLicense.startReporting();
  f.http.addHook('onClose', async () => serverLicense.stop());
  return serverLicense;
}
