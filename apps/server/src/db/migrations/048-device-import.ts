import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Where a panel hangs (issue 28 item 5): a free text set by the CSV import and shown in the export.
  await db.schema
    .alterTable('devices')
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // What an import said about a serial no panel of the company holds yet: applied when a panel
  // with that serial enrolls into that company (never another one), then deleted. A null field
  // was not in the file and changes nothing; labels are a JSON array of names.
  await db.schema
    .createTable('device_import_pending')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('location', 'text')
    .addColumn('remark', 'text')
    .addColumn('labels', 'text')
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_import_pending_pk', ['org_id', 'device_key'])
    .execute();
}
