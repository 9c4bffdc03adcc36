import type { Base } from '../../foundation.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import { ensurePlatformAdmin } from './bootstrap.js';
import { UserRepository } from './repository.js';

export type { UserRepository };

export function installUsers(f: Base, needs: { organisations: OrganisationRepository }) {
  const users = new UserRepository(f.kysely);
  return {
    users,
    /** Run once for all instances, on the first start (deployment/index.ts). */
    ensurePlatformAdmin: () =>
      ensurePlatformAdmin({
        organisations: needs.organisations,
        users,
        hasher: f.hasher,
        clock: f.clock,
        log: f.log,
        adminPassword: f.config.adminPassword,
      }),
  };
}
