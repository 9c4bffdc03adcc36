import type { Base } from '../../foundation.js';
import { OrganisationRepository } from './repository.js';

export type { OrganisationRepository };

export const openOrganisations = (f: Base) => new OrganisationRepository(f.kysely);
