import type { Foundation } from '../../foundation.js';
import { ScreenTimeRepository } from './repository.js';
import { screenTimeRoutes } from './routes.js';
import { ScreenTimeService } from './service.js';

export function installScreenTime(f: Foundation): void {
  screenTimeRoutes(f.router, new ScreenTimeService(new ScreenTimeRepository(f.kysely)));
}
