import type { Foundation } from '../../foundation.js';
import type { LicenseRepository } from '../licenses/repository.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import { ServerRepository } from './repository.js';
import { serverRegistryRoutes } from './routes.js';
import { ServerRegistry } from './service.js';

/** The platform's registry of private servers and their reports. */
export function installServers(
  f: Foundation,
  needs: { licenses: LicenseRepository; organisations: OrganisationRepository },
): void {
  serverRegistryRoutes(
    f.router,
    new ServerRegistry({
      servers: new ServerRepository(f.kysely),
      ...needs,
      clock: f.clock,
      log: f.operations,
      reportIntervalMs: f.config.serverReportIntervalMs,
    }),
  );
}
