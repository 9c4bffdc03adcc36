import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // Single sign-on through the organisation's own OIDC identity provider (issue 29 item 1): one
  // provider per organisation; its client secret is kept sealed with a key derived from the
  // pepper (security/sealed.ts).
  await withId(db.schema.createTable('sso_providers'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().unique())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('display_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('issuer', 'varchar(300)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(200)', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('email_domains', 'varchar(1000)', (c) => c.notNull())
    .addColumn('mappings', 'text', (c) => c.notNull())
    .addColumn('jit', 'integer', (c) => c.notNull())
    .addColumn('sso_only', 'integer', (c) => c.notNull())
    .addColumn('break_glass_user_id', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // A sign-in under way: bound to the browser (`browser` is the hash of its pf_sso cookie), used
  // once, valid ten minutes. `id` is the hash of the state sent to the provider.
  await db.schema
    .createTable('sso_logins')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('browser', 'varchar(64)', (c) => c.notNull())
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('nonce', 'varchar(100)', (c) => c.notNull())
    .addColumn('verifier', 'varchar(100)', (c) => c.notNull())
    .addColumn('return_to', 'varchar(300)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // Who a provider's subject is here, once linked or created. The check of the provider
  // (modules/sso/idp-check.ts) keeps the last refresh token the provider gave (sealed), when it
  // last answered for the user, and whether the user must sign in through it again.
  await db.schema
    .createTable('sso_identities')
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_token', 'text')
    .addColumn('checked_at', 'bigint')
    .addColumn('needs_sign_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('sso_identities_pk', ['provider_id', 'subject'])
    .execute();
  // The sessions a sign-in through a provider started (how signed in: oidc).
  await db.schema
    .createTable('sso_sessions')
    .addColumn('session_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
