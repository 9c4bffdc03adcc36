import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { SignalSourcesTable } from '../../db/schema-catalogs.js';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

export type SourceRecord = Selectable<SignalSourcesTable>;

/** Signal sources of the deployment's catalog. */
export class SourceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(offset: number, size: number, name?: string) {
    let query = this.db.selectFrom('signal_sources');
    if (name) query = query.where(containsFolded('name', name));
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** Every source in catalog order (the catalog is small: a few dozen inputs at most). */
  all(): Promise<SourceRecord[]> {
    return this.db.selectFrom('signal_sources').selectAll().orderBy('id').limit(1000).execute();
  }

  findById(id: number): Promise<SourceRecord | undefined> {
    return this.db.selectFrom('signal_sources').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByKey(sourceKey: string): Promise<SourceRecord | undefined> {
    return this.db
      .selectFrom('signal_sources')
      .selectAll()
      .where('source_key', '=', sourceKey)
      .executeTakeFirst();
  }

  async insert(row: Insertable<SignalSourcesTable>): Promise<SourceRecord> {
    return this.db.insertInto('signal_sources').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, set: Updateable<SignalSourcesTable>) {
    await this.db.updateTable('signal_sources').set(set).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('signal_sources').where('id', '=', id).execute();
  }

  /** Names of the machine types that offer this source. */
  async machineTypesUsing(sourceId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('machine_type_sources')
      .innerJoin('machine_types', 'machine_types.id', 'machine_type_sources.machine_type_id')
      .select('machine_types.name')
      .where('machine_type_sources.source_id', '=', sourceId)
      .orderBy('machine_types.name')
      .execute();
    return rows.map((r) => r.name);
  }
}
