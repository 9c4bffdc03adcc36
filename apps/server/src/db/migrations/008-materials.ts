import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // Uploaded materials (audio for notifications), owned by the customer organisation.
  await withId(db.schema.createTable('materials'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('file_type', 'integer', (c) => c.notNull())
    // The name it was uploaded with, for display only; the file lives under stored_name.
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('stored_name', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('materials_org_type_idx')
    .on('materials')
    .columns(['org_id', 'file_type', 'id'])
    .execute();
}
