import type { Foundation } from '../../foundation.js';
import type { SourceRepository } from '../sources/repository.js';
import type { SourceService } from '../sources/service.js';
import { MachineTypeRepository } from './repository.js';
import { machineTypeRoutes } from './routes.js';
import { MachineTypeService } from './service.js';

export type { MachineTypeRepository };

export function installMachineTypes(
  f: Foundation,
  needs: { sources: { sources: SourceRepository; service: SourceService } },
): MachineTypeRepository {
  const machineTypes = new MachineTypeRepository(f.kysely);
  machineTypeRoutes(
    f.router,
    new MachineTypeService({
      repository: machineTypes,
      sources: needs.sources.sources,
      ownSources: needs.sources.service,
      log: f.operations,
      clock: f.clock,
    }),
  );
  return machineTypes;
}
