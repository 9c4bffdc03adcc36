import type { Kysely } from 'kysely';

/**
 * What the console's Renew compares (protocol 5.2): each reported app's versionCode and the
 * SHA-256 of its signing certificate. And the parts of app reports that travel in several
 * messages, kept until the last part arrives (so any instance may receive any part).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('device_apps').addColumn('version_code', 'bigint').execute();
  await db.schema
    .alterTable('device_apps')
    .addColumn('signer_sha256', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('device_app_parts')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('report_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('parts', 'integer', (c) => c.notNull())
    .addColumn('apps', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_app_parts_pk', ['device_id', 'report_id', 'part'])
    .execute();
}
