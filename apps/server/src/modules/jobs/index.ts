import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { JobLeases } from './leases.js';
import { JobLeaseRepository } from './repository.js';

export type { JobLeases };

/** The periodic jobs' leases (released when the instance shuts down). */
export const openJobLeases = (kysely: Db['kysely'], clock: Clock) =>
  new JobLeases(new JobLeaseRepository(kysely), clock);
