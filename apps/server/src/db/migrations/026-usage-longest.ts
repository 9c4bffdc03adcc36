import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The app run-time report clips every record that started before a period and runs into it.
  // How far back it must look is the company's longest record (one probe of this index), not a
  // whole day: for a school's panels that is the evening before, not the whole previous day.
  await db.schema
    .createIndex('app_usage_org_duration_idx')
    .on('app_usage')
    .columns(['org_id', 'duration_ms'])
    .execute();
}
