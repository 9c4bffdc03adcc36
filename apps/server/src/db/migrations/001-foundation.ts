import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('organisations'), dialect)
    .addColumn('parent_id', 'integer', (c) => c.references('organisations.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_quota', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('users'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_type', 'varchar(1)', (c) => c.notNull())
    .addColumn('activated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('program_role', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('valid_begin', 'bigint')
    .addColumn('valid_end', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_org_idx').on('users').column('org_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('captchas')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('answer', 'varchar(8)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('captchas_expiry_idx').on('captchas').column('expires_at').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('key', 'varchar(160)', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('first_at', 'bigint', (c) => c.notNull())
    .execute();
}
