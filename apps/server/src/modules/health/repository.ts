import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The one statement readiness needs: does the database answer? */
export class HealthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.db);
  }
}
