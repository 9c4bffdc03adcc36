import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // What each panel last reported on its settings topic, one row per section; ids stay while the
  // panel keeps reporting the section, so the console can name sections to clone by id.
  await withId(db.schema.createTable('device_settings'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('platform', 'varchar(16)', (c) => c.notNull())
    .addColumn('section', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('reported_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('device_settings_device_section_uq', ['device_id', 'section'])
    .execute();
}
