import type { Foundation } from '../../foundation.js';
import { LicenseRepository } from './repository.js';
import { licenseRoutes } from './routes.js';
import { LicenseService } from './service.js';

export type { LicenseRepository };

export function installLicenses(f: Foundation): LicenseRepository {
  const licenses = new LicenseRepository(f.kysely);
  licenseRoutes(f.router, new LicenseService({ licenses, log: f.operations, clock: f.clock }));
  return licenses;
}
