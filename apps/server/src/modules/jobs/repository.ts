import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The job leases: one statement takes or renews a lease, so two instances never both hold it. */
export class JobLeaseRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Takes `name` for `owner` until `until` if it is free, lapsed at `now`, or already its own. */
  async take(name: string, owner: string, now: number, until: number): Promise<boolean> {
    const row = await this.db
      .insertInto('job_leases')
      .values({ name, owner, until })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ owner, until })
          .where((eb) => eb.or([eb('job_leases.until', '<=', now), eb('job_leases.owner', '=', owner)])),
      )
      .returning('owner')
      .executeTakeFirst();
    return row?.owner === owner;
  }

  /** Gives up every lease of `owner` (it shuts down): another instance takes each at its next run. */
  async releaseAll(owner: string): Promise<void> {
    await this.db.deleteFrom('job_leases').where('owner', '=', owner).execute();
  }
}
