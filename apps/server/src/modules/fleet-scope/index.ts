import type { Foundation } from '../../foundation.js';
import { FleetScopeRepository } from './repository.js';
import { FleetScopes } from './service.js';

export type { FleetScopes };

/** Which panels a console user sees (dashboards, the live console). */
export const openFleetScopes = (f: Foundation) => new FleetScopes(new FleetScopeRepository(f.kysely));
