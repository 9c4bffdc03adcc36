import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OtaVersionsTable } from '../../db/schema-ota.js';
import { containsFolded } from '../../db/search.js';

export type OtaVersionRecord = Selectable<OtaVersionsTable>;

/** The OTA version catalog (deployment-wide, like machine types). */
export class OtaVersionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(offset: number, size: number, name?: string) {
    let query = this.db.selectFrom('ota_versions');
    if (name) query = query.where(containsFolded('name', name));
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('id').limit(size).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  findById(id: number) {
    return this.db.selectFrom('ota_versions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Undefined when the name is taken. */
  async insert(row: Insertable<OtaVersionsTable>): Promise<number | undefined> {
    const inserted = await this.db
      .insertInto('ota_versions')
      .values(row)
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  }

  async update(id: number, set: { name: string; enabled: number; update_man: string; updated_at: number }) {
    await this.db.updateTable('ota_versions').set(set).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('ota_versions').where('id', '=', id).execute();
  }

  findByName(name: string) {
    return this.db.selectFrom('ota_versions').select('id').where('name', '=', name).executeTakeFirst();
  }
}
