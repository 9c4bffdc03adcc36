import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // Saved settings of a company (spec 2 "Setting page"): templates (type '0', complete settings of
  // a series) and source settings (type '1', the picture of one input of a system and series).
  await withId(db.schema.createTable('setting_templates'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('type', 'varchar(1)', (c) => c.notNull())
    .addColumn('series', 'varchar(16)', (c) => c.notNull())
    // Source settings only (null for templates): the system and the input.
    .addColumn('system', 'varchar(16)')
    .addColumn('source_type', 'varchar(16)')
    .addColumn('json_data', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('setting_templates_org_type_idx')
    .on('setting_templates')
    .columns(['org_id', 'type', 'id'])
    .execute();
  // One source setting per system, series and input; templates (nulls there) are not limited,
  // because both engines treat nulls as distinct in a unique index.
  await db.schema
    .createIndex('setting_templates_source_uq')
    .on('setting_templates')
    .columns(['org_id', 'series', 'system', 'source_type'])
    .unique()
    .execute();

  // A push of saved settings (or of a picture from the device detail) to panels: its commands
  // live in `commands`; this keeps which command is which panel's, which setting it carried and
  // whether the panel was off at the push (so the result can say "applied after coming back").
  await withId(db.schema.createTable('setting_pushes'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('target_count', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('setting_push_targets')
    .addColumn('push_id', 'integer', (c) => c.notNull().references('setting_pushes.id').onDelete('cascade'))
    .addColumn('command_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    // The saved setting carried (no reference: deleting a setting keeps its pushes' history).
    .addColumn('setting_id', 'integer')
    .addColumn('what', 'varchar(32)', (c) => c.notNull())
    .addColumn('offline_at_push', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('setting_push_targets_pk', ['push_id', 'command_id'])
    .execute();

  // The picture settings each panel last reported (settings report: system and pictureSettings).
  await db.schema
    .createTable('device_pictures')
    .addColumn('device_id', 'integer', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('system', 'varchar(16)')
    // JSON: picture settings by input.
    .addColumn('pictures', 'text', (c) => c.notNull())
    .addColumn('reported_at', 'bigint', (c) => c.notNull())
    .execute();
}
