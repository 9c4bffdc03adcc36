import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

/**
 * The APK repository: application cards (one per package and organisation), their versions and
 * the auxiliary apps of a version. Each version keeps what the server read from the APK.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('apk_marks'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('package_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('mark', 'varchar(32)', (c) => c.notNull())
    .addColumn('remark', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('signer_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // Two first uploads of one package at once: one card, the other is told to add a version.
    .addUniqueConstraint('apk_marks_org_package_uq', ['org_id', 'package_name'])
    .execute();

  await withId(db.schema.createTable('apk_versions'), dialect)
    .addColumn('mark_id', 'integer', (c) => c.notNull().references('apk_marks.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('version_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('version_code', 'bigint', (c) => c.notNull())
    .addColumn('min_sdk', 'integer')
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('stored_path', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('icon_path', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('signer_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('remark', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('downgrade', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Two uploads of the same versionCode at once: one version, the other is refused.
    .addUniqueConstraint('apk_versions_mark_code_uq', ['mark_id', 'version_code'])
    .execute();
  await db.schema
    .createIndex('apk_versions_org_idx')
    .on('apk_versions')
    .columns(['org_id', 'mark_id'])
    .execute();

  await withId(db.schema.createTable('apk_file_subs'), dialect)
    .addColumn('version_id', 'integer', (c) => c.notNull().references('apk_versions.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('package_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('label', 'varchar(255)', (c) => c.notNull())
    .addColumn('version_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('version_code', 'bigint', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('stored_path', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('icon_path', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('apk_file_subs_version_idx').on('apk_file_subs').column('version_id').execute();
}
