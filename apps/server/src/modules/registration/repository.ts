import type { Insertable, Kysely } from 'kysely';
import type { Database, UsersTable } from '../../db/schema.js';

export class RegistrationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  salespeopleOnTheJob() {
    return this.db
      .selectFrom('salespeople')
      .select(['id', 'name'])
      .where('job_state', '=', 1)
      .orderBy('name')
      .execute();
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

  /**
   * The customer organisation (under the distributor named like the salesperson's company, made
   * on first use), its license marked used by it, and its first user, in one transaction.
   * Undefined, with nothing written, when the license was spent meanwhile (a race); a taken user
   * name throws the database's unique violation, also with nothing written.
   */
  async registerCustomer(customer: NewCustomer): Promise<{ userId: number; orgId: number } | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const parentId = await distributorNamed(
          trx,
          customer.distributorName,
          customer.platformId,
          customer.now,
        );
        const org = await trx
          .insertInto('organisations')
          .values({
            parent_id: parentId,
            kind: 'customer',
            name: customer.companyName,
            user_quota: customer.userQuota,
            created_at: customer.now,
            salesperson_id: customer.salespersonId,
            license_id: customer.licenseId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const used = await trx
          .updateTable('licenses')
          .set({ state: 0, used_by_org_id: org.id })
          .where('id', '=', customer.licenseId)
          .where('state', '=', 1)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) throw new LicenseSpent();
        const user = await trx
          .insertInto('users')
          .values({ ...customer.user, org_id: org.id, created_at: customer.now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { userId: user.id, orgId: org.id };
      });
    } catch (error) {
      if (error instanceof LicenseSpent) return undefined;
      throw error;
    }
  }
}

export interface NewCustomer {
  companyName: string;
  userQuota: number;
  salespersonId: number;
  /** The salesperson's company: the distributor the customer belongs to. */
  distributorName: string;
  licenseId: number;
  platformId: number;
  user: Omit<Insertable<UsersTable>, 'org_id' | 'created_at'>;
  now: number;
}

/** Rolls the registration back when its license was spent by another one meanwhile. */
class LicenseSpent extends Error {}

/** The distributor organisation of this name, created under the platform on first use. */
async function distributorNamed(
  trx: Kysely<Database>,
  name: string,
  platformId: number,
  now: number,
): Promise<number> {
  const found = await trx
    .selectFrom('organisations')
    .select('id')
    .where('kind', '=', 'distributor')
    .where('name', '=', name)
    .executeTakeFirst();
  if (found) return found.id;
  const row = await trx
    .insertInto('organisations')
    .values({ parent_id: platformId, kind: 'distributor', name, user_quota: 0, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
