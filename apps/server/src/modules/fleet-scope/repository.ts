import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The customer companies a caller's organisation reaches. */
export class FleetScopeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every customer company of the deployment (the platform's reach). */
  async allCustomers(): Promise<Array<{ id: number; name: string }>> {
    return this.db
      .selectFrom('organisations')
      .select(['id', 'name'])
      .where('kind', '=', 'customer')
      .orderBy('id')
      .execute();
  }

  /** The customer companies under a distributor. */
  async customersOfDistributor(distributorId: number): Promise<Array<{ id: number; name: string }>> {
    return this.db
      .selectFrom('organisations')
      .select(['id', 'name'])
      .where('kind', '=', 'customer')
      .where('parent_id', '=', distributorId)
      .orderBy('id')
      .execute();
  }

  /** The caller's own company, if it is a customer company. */
  async ownCompany(orgId: number): Promise<Array<{ id: number; name: string }>> {
    return this.db
      .selectFrom('organisations')
      .select(['id', 'name'])
      .where('id', '=', orgId)
      .where('kind', '=', 'customer')
      .execute();
  }
}
