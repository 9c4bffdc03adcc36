import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Issue 29 items 2, 3, 5: a second factor (TOTP) per local account, its recovery codes, the
  // sign-in that waits for it, and sessions a user can see (browser, how signed in).
  await db.schema
    .createTable('second_factors')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // AES-256-GCM of the TOTP secret under a key derived from the deployment's pepper.
    .addColumn('secret', 'varchar(255)', (c) => c.notNull())
    // Null while enrolment waits for its first code.
    .addColumn('confirmed_at', 'bigint')
    // The newest 30-second step a code was accepted for: a code is good once.
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('sign_in_steps')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('organisations')
    .addColumn('require_second_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('ref', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  // Sessions from before get a reference too (a part of their hash, which is not the token).
  await sql`UPDATE sessions SET ref = substr(id, 1, 16)`.execute(db);
  await db.schema
    .alterTable('sessions')
    .addColumn('method', 'varchar(32)', (c) => c.notNull().defaultTo('password'))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
}
