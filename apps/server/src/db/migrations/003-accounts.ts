import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('salespeople'), dialect)
    .addColumn('work_number', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('company_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('phone', 'varchar(32)', (c) => c.notNull())
    .addColumn('job_state', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('licenses'), dialect)
    .addColumn('license_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('company_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('salesperson_id', 'integer', (c) => c.notNull().references('salespeople.id'))
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('valid_begin', 'bigint', (c) => c.notNull())
    .addColumn('valid_end', 'bigint', (c) => c.notNull())
    .addColumn('used_by_org_id', 'integer', (c) => c.references('organisations.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('licenses_company_idx').on('licenses').column('company_name').execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('link_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_tokens_user_idx')
    .on('account_tokens')
    .columns(['user_id', 'purpose'])
    .execute();

  await withId(db.schema.createTable('operation_logs'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    // A user type ('0'-'4'), or 'server' when a private deployment acted.
    .addColumn('user_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('content', 'varchar(500)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('operation_logs_org_time_idx')
    .on('operation_logs')
    .columns(['org_id', 'created_at'])
    .execute();

  await db.schema.alterTable('organisations').addColumn('salesperson_id', 'integer').execute();
  await db.schema.alterTable('organisations').addColumn('license_id', 'integer').execute();
}
