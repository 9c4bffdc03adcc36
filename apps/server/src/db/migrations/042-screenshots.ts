import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // Screenshots of panels (issue 27 items 1-3): one row per request, its upload token's single
  // use claimed by the conditional update of its status; the picture and its thumbnail live in
  // the file store under `file_key` and `thumb_key`.
  await withId(db.schema.createTable('screenshots'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('device_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('failure', 'varchar(16)')
    .addColumn('requested_by', 'integer')
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('taken_at', 'bigint')
    .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('media_type', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('file_key', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('thumb_key', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('command_id', 'varchar(36)')
    .execute();
  await db.schema
    .createIndex('screenshots_org_device_time_idx')
    .on('screenshots')
    .columns(['org_id', 'device_id', 'requested_at'])
    .execute();
  await db.schema.createIndex('screenshots_command_idx').on('screenshots').column('command_id').execute();
}
