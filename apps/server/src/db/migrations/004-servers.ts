import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // Platform side: the private deployments that activated with a server license.
  await withId(db.schema.createTable('servers'), dialect)
    .addColumn('server_id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('license_id', 'integer', (c) => c.notNull().references('licenses.id'))
    .addColumn('company_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('mac', 'varchar(64)', (c) => c.notNull())
    .addColumn('os', 'varchar(128)', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('valid_begin', 'bigint', (c) => c.notNull())
    .addColumn('valid_end', 'bigint', (c) => c.notNull())
    .addColumn('last_report_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // Private side: this deployment's identity and activation (one row).
  await db.schema
    .createTable('server_identity')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('server_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('secret', 'varchar(128)')
    .addColumn('company_name', 'varchar(128)')
    .addColumn('valid_begin', 'bigint')
    .addColumn('valid_end', 'bigint')
    .addColumn('activated_at', 'bigint')
    .execute();
}
