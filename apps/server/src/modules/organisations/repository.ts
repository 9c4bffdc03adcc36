import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, OrganisationsTable } from '../../db/schema.js';

export type Organisation = Selectable<OrganisationsTable>;

export class OrganisationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findPlatform(): Promise<Organisation | undefined> {
    return this.db.selectFrom('organisations').selectAll().where('kind', '=', 'platform').executeTakeFirst();
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
