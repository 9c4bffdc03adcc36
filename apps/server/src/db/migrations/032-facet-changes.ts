import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** The facets of migration 017, as they were when this migration was written. */
const FACETS = [
  { facet: 'ota', column: 'ota_version' },
  { facet: 'type', column: 'machine_type' },
  { facet: 'country', column: 'geo_country' },
  { facet: 'province', column: 'geo_province' },
  { facet: 'source', column: 'geo_source' },
] as const;

/**
 * On PostgreSQL the triggers of migration 017 no longer update a company's facet counts in place:
 * they append the change to `device_facet_changes`, which the dashboards fold into
 * `device_facets` (one sorted statement) and add to what they read.
 *
 * Why: every enrollment, map placement and firmware change of a company updated the same few
 * counter rows from inside its own transaction, each writer in the order its rows and columns
 * happened to come (an enrollment ota, type, country, province, source; a map placement of
 * several panels source for one and country for the next), while also holding device rows. Two
 * instances enrolling panels beside the map placement of those already enrolled deadlocked, and
 * the aborted enrollment answered 503. Appending takes no lock another writer waits for.
 *
 * SQLite runs one writer at a time and cannot deadlock: its triggers keep counting in place and
 * its change table stays empty.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('device_facet_changes')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('facet', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'varchar(128)', (c) => c.notNull())
    .addColumn('delta', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_facet_changes_org_idx')
    .on('device_facet_changes')
    .column('org_id')
    .execute();
  if (dialect !== 'postgres') return;

  const bulk = (name: string, table: 'added' | 'removed', sign: 1 | -1) =>
    sql.raw(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO device_facet_changes (org_id, facet, value, delta)
      ${FACETS.map(
        ({ facet, column }) =>
          `SELECT org_id, '${facet}', ${column}, ${sign} * count(*) FROM ${table} GROUP BY org_id, ${column}`,
      ).join('\n      UNION ALL ')};
      RETURN NULL;
    END $$`);
  await sql`${bulk('device_facets_inserted', 'added', 1)}`.execute(db);
  await sql`${bulk('device_facets_deleted', 'removed', -1)}`.execute(db);
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION device_facets_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${FACETS.map(
        ({
          facet,
          column,
        }) => `IF OLD.${column} IS DISTINCT FROM NEW.${column} OR OLD.org_id <> NEW.org_id THEN
        INSERT INTO device_facet_changes (org_id, facet, value, delta)
          VALUES (OLD.org_id, '${facet}', OLD.${column}, -1), (NEW.org_id, '${facet}', NEW.${column}, 1);
      END IF;`,
      ).join('\n      ')}
      RETURN NULL;
    END $$`,
    )
    .execute(db);
}
