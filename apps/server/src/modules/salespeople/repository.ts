import type { Insertable, Kysely, Updateable } from 'kysely';
import type { SalespeopleTable } from '../../db/schema-accounts.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

/** Salespeople: platform-wide records (type 0 only), so no organisation scope. */
export class SalespersonRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(filter: { name?: string }, offset: number, size: number) {
    const base = () => {
      const query = this.db.selectFrom('salespeople');
      return filter.name ? query.where(containsFolded('name', filter.name)) : query;
    };
    const [rows, count] = await Promise.all([
      base().selectAll().orderBy('id').limit(size).offset(offset).execute(),
      base()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Throws the database's unique violation when the work number is taken. */
  async insert(row: Insertable<SalespeopleTable>): Promise<void> {
    await this.db.insertInto('salespeople').values(row).execute();
  }

  /** False when there is no such salesperson. */
  async update(id: number, set: Updateable<SalespeopleTable>): Promise<boolean> {
    const result = await this.db.updateTable('salespeople').set(set).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async hasLicenses(id: number): Promise<boolean> {
    const found = await this.db
      .selectFrom('licenses')
      .select('id')
      .where('salesperson_id', '=', id)
      .executeTakeFirst();
    return found !== undefined;
  }

  find(id: number) {
    return this.db
      .selectFrom('salespeople')
      .select(['id', 'work_number', 'name'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** False when there is no such salesperson. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('salespeople').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
