import crypto from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { ServerIdentityTable } from '../../db/schema-servers.js';
import type { Database } from '../../db/schema.js';

/** This deployment's own identity: one row (id 1), made on first use. */
export class ServerIdentityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get() {
    const row = await this.db
      .selectFrom('server_identity')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirst();
    if (row) return row;
    await this.db
      .insertInto('server_identity')
      .values({ id: 1, server_id: crypto.randomUUID() })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return this.db.selectFrom('server_identity').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  }

  async update(set: Omit<Updateable<ServerIdentityTable>, 'id' | 'server_id'>): Promise<void> {
    await this.db.updateTable('server_identity').set(set).where('id', '=', 1).execute();
  }
}
