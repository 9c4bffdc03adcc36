import type { Insertable, Kysely, Updateable } from 'kysely';
import type { LicensesTable } from '../../db/schema-accounts.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

/** Licenses: platform-wide rows (type 0 only), so no organisation scope. */
export class LicenseRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A page of licenses, newest first, with the salesperson's name, and the total. */
  async page(filter: { companyName?: string }, offset: number, size: number) {
    const base = () => {
      const query = this.db
        .selectFrom('licenses')
        .innerJoin('salespeople', 'salespeople.id', 'licenses.salesperson_id');
      return filter.companyName
        ? query.where(containsFolded('licenses.company_name', filter.companyName))
        : query;
    };
    const [rows, count] = await Promise.all([
      base()
        .selectAll('licenses')
        .select('salespeople.name as sale_man_name')
        .orderBy('licenses.id', 'desc')
        .limit(size)
        .offset(offset)
        .execute(),
      base()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  findById(id: number) {
    return this.db.selectFrom('licenses').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByKey(key: string) {
    return this.db.selectFrom('licenses').selectAll().where('license_key', '=', key).executeTakeFirst();
  }

  async salespersonExists(id: number): Promise<boolean> {
    const found = await this.db
      .selectFrom('salespeople')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return found !== undefined;
  }

  async insert(row: Insertable<LicensesTable>): Promise<void> {
    await this.db.insertInto('licenses').values(row).execute();
  }

  async update(id: number, set: Updateable<LicensesTable>): Promise<void> {
    await this.db.updateTable('licenses').set(set).where('id', '=', id).execute();
  }

  /** Deletes the license unless it was used (state 0) meanwhile. */
  async deleteUnused(id: number): Promise<void> {
    await this.db.deleteFrom('licenses').where('id', '=', id).where('state', '!=', 0).execute();
  }
}
