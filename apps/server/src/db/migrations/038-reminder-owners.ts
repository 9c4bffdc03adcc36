import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Reminders belong to whoever made them (issue 25 item 10): the platform's reach every panel, a
  // distributor's the panels of its customers, and only their owner changes them. Reminders made
  // before are the platform's, as the platform is who reached every panel then.
  await db.schema
    .alterTable('warnings')
    .addColumn('org_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE warnings SET org_id = COALESCE((SELECT min(id) FROM organisations WHERE kind = 'platform'), 0)`.execute(
    db,
  );
  await db.schema.dropIndex('warnings_type_version_idx').execute();
  await db.schema
    .createIndex('warnings_org_type_version_idx')
    .on('warnings')
    .columns(['org_id', 'machine_type', 'ota_version'])
    .unique()
    .execute();
}
