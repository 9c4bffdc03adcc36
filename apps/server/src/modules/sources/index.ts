import type { Foundation } from '../../foundation.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import { SourceRepository } from './repository.js';
import { sourceRoutes } from './routes.js';
import { SourceService } from './service.js';

/** Signal sources (the hardware catalog); machine types are built from them. */
export function installSources(f: Foundation, needs: { organisations: OrganisationRepository }) {
  const sources = new SourceRepository(f.kysely);
  const service = new SourceService({
    repository: sources,
    organisations: needs.organisations,
    log: f.operations,
    clock: f.clock,
  });
  sourceRoutes(f.router, service);
  return { sources, service };
}
