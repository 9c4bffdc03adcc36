import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, OrganisationsTable } from '../../db/schema.js';

export type Organisation = Selectable<OrganisationsTable>;

export class OrganisationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findPlatform(): Promise<Organisation | undefined> {
    return this.db.selectFrom('organisations').selectAll().where('kind', '=', 'platform').executeTakeFirst();
  }

  /**
   * The organisation and those above it, nearest first (a customer, its distributor, the
   * platform): organisations form a tree at most three levels deep.
   */
  async lineage(orgId: number): Promise<Array<Pick<Organisation, 'id' | 'kind'>>> {
    const out: Array<Pick<Organisation, 'id' | 'kind'>> = [];
    let current: number | null = orgId;
    for (let level = 0; level < 3 && current !== null; level++) {
      const row: Pick<Organisation, 'id' | 'kind' | 'parent_id'> | undefined = await this.db
        .selectFrom('organisations')
        .select(['id', 'kind', 'parent_id'])
        .where('id', '=', current)
        .executeTakeFirst();
      if (!row) break;
      out.push({ id: row.id, kind: row.kind });
      current = row.parent_id;
    }
    return out;
  }

  findById(id: number): Promise<Organisation | undefined> {
    return this.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(org: Insertable<OrganisationsTable>): Promise<number> {
    const row = await this.db
      .insertInto('organisations')
      .values(org)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
}
