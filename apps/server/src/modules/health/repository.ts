import type { Db } from '../../db/database.js';

/** The one question readiness asks the database: does it answer? (`Db.ping`: its own connection.) */
export class HealthRepository {
  constructor(private readonly db: Pick<Db, 'ping'>) {}

  ping(): Promise<void> {
    return this.db.ping();
  }
}
