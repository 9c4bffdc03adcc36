import type { Foundation } from '../../foundation.js';
import { SalespersonRepository } from './repository.js';
import { salespersonRoutes } from './routes.js';
import { SalespersonService } from './service.js';

export function installSalespeople(f: Foundation): void {
  salespersonRoutes(
    f.router,
    new SalespersonService({
      salespeople: new SalespersonRepository(f.kysely),
      log: f.operations,
      clock: f.clock,
    }),
  );
}
