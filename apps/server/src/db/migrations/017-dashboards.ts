import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Dashboards and maps (docs/ARCHITECTURE.md, "Dashboards and the live console").
 *
 * - `devices.geo_*`: where the panel is on the map: its reported position, else the place of its
 *   public IP (offline database), else nowhere; country and province names are those of the
 *   bundled world and China maps. Written by the locator, never by a report directly.
 * - `device_facets`: per company, how many panels have each firmware version, machine type,
 *   country and province. Triggers keep it, like `device_order_state` (migration 005), so a
 *   dashboard reads a few dozen rows whatever the fleet's size.
 * - `fleet_history`: one row per company and hour (rolled up into days), written by the server.
 */
const FACETS = [
  { facet: 'ota', column: 'ota_version' },
  { facet: 'type', column: 'machine_type' },
  { facet: 'country', column: 'geo_country' },
  { facet: 'province', column: 'geo_province' },
  { facet: 'source', column: 'geo_source' },
] as const;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('devices')
    .addColumn('geo_source', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('devices').addColumn('geo_latitude', 'double precision').execute();
  await db.schema.alterTable('devices').addColumn('geo_longitude', 'double precision').execute();
  await db.schema
    .alterTable('devices')
    .addColumn('geo_country', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('devices')
    .addColumn('geo_province', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .execute();
  // The map of a company reads its located panels.
  await db.schema
    .createIndex('devices_org_geo_idx')
    .on('devices')
    .columns(['org_id', 'geo_source'])
    .execute();

  await db.schema
    .createTable('device_facets')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('facet', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'varchar(128)', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_facets_pk', ['org_id', 'facet', 'value'])
    .execute();
  for (const { facet, column } of FACETS)
    await sql`INSERT INTO device_facets (org_id, facet, value, total)
      SELECT org_id, ${facet}, ${sql.ref(column)}, count(*) FROM devices GROUP BY org_id, ${sql.ref(column)}`.execute(
      db,
    );
  if (dialect === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);

  await db.schema
    .createTable('fleet_history')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('period', 'varchar(8)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('device_total', 'bigint', (c) => c.notNull())
    .addColumn('online_devices', 'bigint', (c) => c.notNull())
    .addColumn('user_total', 'integer', (c) => c.notNull())
    .addColumn('online_users', 'integer', (c) => c.notNull())
    .addColumn('screen_on_ms', 'bigint', (c) => c.notNull())
    .addColumn('ota_upgrades', 'bigint', (c) => c.notNull())
    // The latest sample of the period: offline panels by days since last seen, fleet gauges.
    .addColumn('offline_lt1', 'bigint', (c) => c.notNull())
    .addColumn('offline_1to3', 'bigint', (c) => c.notNull())
    .addColumn('offline_3to7', 'bigint', (c) => c.notNull())
    .addColumn('offline_7to30', 'bigint', (c) => c.notNull())
    .addColumn('offline_gt30', 'bigint', (c) => c.notNull())
    .addColumn('never_seen', 'bigint', (c) => c.notNull())
    .addColumn('ram_used', 'bigint', (c) => c.notNull())
    .addColumn('ram_total', 'bigint', (c) => c.notNull())
    .addColumn('cpu_temperature', 'double precision')
    .addColumn('sampled_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('fleet_history_pk', ['org_id', 'period', 'at'])
    .execute();
  await db.schema
    .createIndex('fleet_history_period_at_idx')
    .on('fleet_history')
    .columns(['period', 'at'])
    .execute();

  // The history job sums screen time and succeeded OTA installs per hour over all companies.
  await db.schema.createIndex('screen_time_from_idx').on('screen_time').column('from_at').execute();
  await db.schema
    .createIndex('commands_order_status_updated_idx')
    .on('commands')
    .columns(['order_code', 'status', 'updated_at'])
    .execute();
}

async function sqliteTriggers(db: Kysely<unknown>) {
  const add = (facet: string, column: string, row: 'NEW') =>
    `INSERT INTO device_facets (org_id, facet, value, total) VALUES (${row}.org_id, '${facet}', ${row}.${column}, 1)
       ON CONFLICT (org_id, facet, value) DO UPDATE SET total = total + 1;`;
  const remove = (facet: string, column: string, row: 'OLD') =>
    `UPDATE device_facets SET total = total - 1 WHERE org_id = ${row}.org_id AND facet = '${facet}' AND value = ${row}.${column};`;
  const all = (make: (facet: string, column: string) => string) =>
    FACETS.map(({ facet, column }) => make(facet, column)).join('\n');
  await sql
    .raw(
      `CREATE TRIGGER devices_facets_insert AFTER INSERT ON devices BEGIN ${all((f, c) => add(f, c, 'NEW'))} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER devices_facets_delete AFTER DELETE ON devices BEGIN ${all((f, c) => remove(f, c, 'OLD'))} END`,
    )
    .execute(db);
  for (const { facet, column } of FACETS)
    await sql
      .raw(
        `CREATE TRIGGER devices_facet_${facet}_update AFTER UPDATE OF ${column}, org_id ON devices
         WHEN OLD.${column} IS NOT NEW.${column} OR OLD.org_id <> NEW.org_id
         BEGIN ${remove(facet, column, 'OLD')} ${add(facet, column, 'NEW')} END`,
      )
      .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  // Bulk inserts and deletes (imports, seeding): one statement per facet and statement.
  const bulk = (name: string, table: 'added' | 'removed', sign: 1 | -1) =>
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${FACETS.map(
        ({ facet, column }) => `INSERT INTO device_facets AS f (org_id, facet, value, total)
        SELECT org_id, '${facet}', ${column}, ${sign} * count(*) FROM ${table} GROUP BY org_id, ${column}
        ON CONFLICT (org_id, facet, value) DO UPDATE SET total = f.total + excluded.total;`,
      ).join('\n      ')}
      RETURN NULL;
    END $$`);
  await sql`${bulk('device_facets_inserted', 'added', 1)}`.execute(db);
  await sql`${bulk('device_facets_deleted', 'removed', -1)}`.execute(db);
  await sql`CREATE TRIGGER devices_facets_insert AFTER INSERT ON devices REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION device_facets_inserted()`.execute(db);
  await sql`CREATE TRIGGER devices_facets_delete AFTER DELETE ON devices REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION device_facets_deleted()`.execute(db);

  // Updates come from state reports in batches; a row trigger whose WHEN sees no change costs little.
  const changed = FACETS.map(({ column }) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(' OR ');
  await sql
    .raw(
      `CREATE FUNCTION device_facets_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${FACETS.map(
        ({
          facet,
          column,
        }) => `IF OLD.${column} IS DISTINCT FROM NEW.${column} OR OLD.org_id <> NEW.org_id THEN
        UPDATE device_facets SET total = total - 1 WHERE org_id = OLD.org_id AND facet = '${facet}' AND value = OLD.${column};
        INSERT INTO device_facets AS f (org_id, facet, value, total) VALUES (NEW.org_id, '${facet}', NEW.${column}, 1)
          ON CONFLICT (org_id, facet, value) DO UPDATE SET total = f.total + 1;
      END IF;`,
      ).join('\n      ')}
      RETURN NULL;
    END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER devices_facets_update AFTER UPDATE OF ${FACETS.map((f) => f.column).join(', ')}, org_id ON devices
    FOR EACH ROW WHEN (${changed} OR OLD.org_id <> NEW.org_id) EXECUTE FUNCTION device_facets_moved()`,
    )
    .execute(db);
}
