import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class RegistrationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  salespeopleOnTheJob() {
    return this.db.selectFrom('salespeople').select(['id', 'name']).where('job_state', '=', 1).orderBy('name').execute();
  }

  findSalesperson(id: number) {
    return this.db.selectFrom('salespeople').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findLicense(key: string) {
    return this.db.selectFrom('licenses').selectAll().where('license_key', '=', key).executeTakeFirst();
  }

  userNameTaken(userName: string) {
    return this.db.selectFrom('users').select('id').where('user_name', '=', userName).executeTakeFirst();
  }

  /** The distributor organisation named like the salesperson's company, created on first use. */
  async distributorNamed(trx: Kysely<Database>, name: string, platformId: number, now: number): Promise<number> {
    const found = await trx.selectFrom('organisations').select('id').where('kind', '=', 'distributor').where('name', '=', name).executeTakeFirst();
    if (found) return found.id;
    const row = await trx
      .insertInto('organisations')
      .values({ parent_id: platformId, kind: 'distributor', name, user_quota: 0, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Marks a license used by an organisation; false if it was no longer enabled (a race). */
  async useLicense(trx: Kysely<Database>, licenseId: number, orgId: number): Promise<boolean> {
    const result = await trx
      .updateTable('licenses')
      .set({ state: 0, used_by_org_id: orgId })
      .where('id', '=', licenseId)
      .where('state', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
