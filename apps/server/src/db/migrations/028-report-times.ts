import type { Kysely } from 'kysely';

/** The groups of gateway/report-groups.ts, as they were when this migration was written. */
const GROUPS = [
  'network',
  'identity',
  'position',
  'telemetry',
  'apk',
  'ota',
  'brightness',
  'sound',
  'source',
  'power',
  'clock',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // The time of the report that last wrote each group of a device's reported fields: a report
  // older than that (written late by another instance, or after a lookup that waited) leaves the
  // group alone. Null until the first report; no default, so adding them rewrites no row.
  for (const group of GROUPS)
    await db.schema.alterTable('devices').addColumn(`${group}_reported_at`, 'bigint').execute();
}
