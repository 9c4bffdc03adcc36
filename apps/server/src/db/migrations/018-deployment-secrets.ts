import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Checks of the secrets every instance must share (docs/operations.md): the first instance
  // records them, later ones compare and refuse to start on a difference.
  await db.schema
    .createTable('deployment_secrets')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('fingerprint', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
