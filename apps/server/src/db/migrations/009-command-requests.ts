import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Label command requests by the idempotency key the console sends with each click, so a retry
  // answers the first result instead of sending the command again. The primary key makes a key
  // unique per company; rows older than a day are deleted (see CommandRequestRepository).
  await db.schema
    .createTable('command_requests')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('idempotency_key', 'varchar(36)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('command_count', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('command_requests_pk', ['org_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('command_requests_created_idx')
    .on('command_requests')
    .column('created_at')
    .execute();
}
