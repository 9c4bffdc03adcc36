import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

/**
 * Reports, logs, error tips and reminders (issue 16).
 *
 * - Device reports carry the id the panel gave them (protocol 5.3, 5.4): a usage or log report
 *   delivered twice is stored once (unique per device; rows from before have none).
 * - The reports aggregate by company and time: indexes that lead with org_id and the time.
 * - Error tips (spec 3 section 2.9) and reminders (section 2.10) are the deployment's catalogues.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('screen_time').addColumn('report_id', 'varchar(36)').execute();
  await db.schema
    .createIndex('screen_time_report_idx')
    .on('screen_time')
    .columns(['device_id', 'report_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('screen_time_org_time_idx')
    .on('screen_time')
    .columns(['org_id', 'from_at'])
    .execute();
  await db.schema
    .createIndex('app_usage_org_time_idx')
    .on('app_usage')
    .columns(['org_id', 'started_at'])
    .execute();

  await db.schema.alterTable('abnormal_logs').addColumn('report_id', 'varchar(36)').execute();
  await db.schema.alterTable('abnormal_logs').addColumn('text_length', 'bigint').execute();
  await db.schema.alterTable('abnormal_logs').addColumn('processed_by', 'varchar(64)').execute();
  await db.schema.alterTable('abnormal_logs').addColumn('processed_at', 'bigint').execute();
  await db.schema
    .createIndex('abnormal_logs_report_idx')
    .on('abnormal_logs')
    .columns(['device_id', 'report_id'])
    .unique()
    .execute();

  await withId(db.schema.createTable('error_tips'), dialect)
    .addColumn('tips_code', 'varchar(64)', (c) => c.notNull())
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('message', 'varchar(1000)', (c) => c.notNull())
    .addColumn('update_man', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('error_tips_code_language_idx')
    .on('error_tips')
    .columns(['tips_code', 'language'])
    .unique()
    .execute();

  await withId(db.schema.createTable('warnings'), dialect)
    .addColumn('machine_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('ota_version', 'varchar(64)', (c) => c.notNull())
    .addColumn('remark', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('create_man', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('warnings_type_version_idx')
    .on('warnings')
    .columns(['machine_type', 'ota_version'])
    .unique()
    .execute();

  await withId(db.schema.createTable('warning_messages'), dialect)
    .addColumn('warning_id', 'integer', (c) => c.notNull().references('warnings.id').onDelete('cascade'))
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('message', 'varchar(2000)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('warning_messages_language_idx')
    .on('warning_messages')
    .columns(['warning_id', 'language'])
    .unique()
    .execute();
}
