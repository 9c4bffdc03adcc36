import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { MaterialsTable } from '../../db/schema-materials.js';

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
