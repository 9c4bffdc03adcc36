import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MaterialsTable } from '../../db/schema-materials.js';
import { containsFolded } from '../../db/search.js';

export type MaterialRecord = Selectable<MaterialsTable>;

/** Materials of one organisation; every query is scoped by org_id. */
export class MaterialRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(orgId: number, fileType: number): Promise<MaterialRecord[]> {
    return this.db
      .selectFrom('materials')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('file_type', '=', fileType)
      .orderBy('id', 'desc')
      .execute();
  }

  /** One page of the organisation's materials, newest first, with the number that match. */
  async page(
    orgId: number,
    filter: { fileType?: number; fileName?: string },
    offset: number,
    limit: number,
  ): Promise<{ rows: MaterialRecord[]; total: number }> {
    let query = this.db.selectFrom('materials').where('org_id', '=', orgId);
    if (filter.fileType) query = query.where('file_type', '=', filter.fileType);
    if (filter.fileName) query = query.where(containsFolded('file_name', filter.fileName));
    const [rows, counted] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.n) };
  }

  find(orgId: number, id: number): Promise<MaterialRecord | undefined> {
    return this.db
      .selectFrom('materials')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findMany(orgId: number, ids: number[]): Promise<MaterialRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('materials')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .execute();
  }

  async insert(row: Insertable<MaterialsTable>): Promise<MaterialRecord> {
    return this.db.insertInto('materials').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** True when a row was removed. */
  async remove(orgId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('materials')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
