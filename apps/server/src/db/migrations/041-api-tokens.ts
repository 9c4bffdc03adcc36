import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // API tokens (issue 28 item 1): a user's tokens for scripts. Only the SHA-256 of a token is
  // kept; `password_stamp` is a digest of the user's password hash when the token was made, so a
  // changed or reset password ends every token of its user without touching this table.
  await withId(db.schema.createTable('api_tokens'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('hint', 'varchar(16)', (c) => c.notNull())
    .addColumn('scope', 'varchar(16)', (c) => c.notNull())
    .addColumn('label_ids', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('password_stamp', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('last_used_ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').columns(['user_id', 'id']).execute();
}
