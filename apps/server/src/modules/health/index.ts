import type { Foundation } from '../../foundation.js';
import { HealthRepository } from './repository.js';
import { healthRoutes } from './routes.js';
import { HealthService } from './service.js';

/** /healthz: the database and the device transport. */
export function installHealth(f: Foundation, needs: { transportHealthy: () => boolean }): void {
  healthRoutes(f.router, new HealthService(new HealthRepository(f.db), needs.transportHealthy));
}
