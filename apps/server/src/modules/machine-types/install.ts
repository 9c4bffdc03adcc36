import type { Deployment } from '@panelfleet/contract';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Router } from '../../http/router.js';
import { OperationLog } from '../operation-log/repository.js';
import { SourceRepository } from '../sources/repository.js';
import { sourceRoutes } from '../sources/routes.js';
import { SourceService } from '../sources/service.js';
import { MachineTypeRepository } from './repository.js';
import { machineTypeRoutes } from './routes.js';
import { MachineTypeService } from './service.js';

/** The hardware catalog's calls: signal sources (/source/*) and machine types (/platform/machineType/*). */
export function installCatalogs(router: Router, deps: { db: Kysely<Database>; clock: Clock; deployment: Deployment }) {
  const log = new OperationLog(deps.db, deps.clock.now);
  const sources = new SourceRepository(deps.db);
  sourceRoutes(router, new SourceService({ repository: sources, log, clock: deps.clock, deployment: deps.deployment }));
  machineTypeRoutes(
    router,
    new MachineTypeService({ repository: new MachineTypeRepository(deps.db), sources, log, clock: deps.clock, deployment: deps.deployment }),
  );
}
