import type { Generated, Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

/** The input sources panels know (spec 2 section 9: source types), seeded once. */
const DEFAULT_SOURCES = [
  ['VGA', 'vga'],
  ['FRONT', 'front'],
  ['HDMI1', 'hdmi1'],
  ['HDMI2', 'hdmi2'],
  ['HDMI3', 'hdmi3'],
  ['PC', 'pc'],
  ['DP', 'dp'],
] as const;

/**
 * The series panels report (and the simulator's), with their inputs: HDMI3 only on x9_vn,
 * VGA only on the others (spec 2 section 5, source options).
 */
const DEFAULT_MACHINE_TYPES = [
  ['x9_vn', ['front', 'hdmi1', 'hdmi2', 'hdmi3', 'pc', 'dp']],
  ['oem', ['vga', 'front', 'hdmi1', 'hdmi2', 'pc', 'dp']],
  ['rs', ['vga', 'front', 'hdmi1', 'hdmi2', 'pc', 'dp']],
] as const;

export const SEEDED_BY = 'system';

/** The hardware catalog of the deployment: signal sources, machine types and their inputs. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('signal_sources'), dialect)
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('source_key', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('machine_types'), dialect)
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('create_man', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('machine_type_sources'), dialect)
    .addColumn('machine_type_id', 'integer', (c) =>
      c.notNull().references('machine_types.id').onDelete('cascade'),
    )
    // No cascade: a source in use is refused deletion.
    .addColumn('source_id', 'integer', (c) => c.notNull().references('signal_sources.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addUniqueConstraint('machine_type_sources_uq', ['machine_type_id', 'source_id'])
    .execute();
  await db.schema
    .createIndex('machine_type_sources_source_idx')
    .on('machine_type_sources')
    .column('source_id')
    .execute();

  // Devices refer to a machine type by the name they report; counting them must not scan the table.
  await db.schema
    .createIndex('devices_machine_type_idx')
    .on('devices')
    .columns(['machine_type', 'org_id'])
    .execute();

  // Seeded here, so it happens exactly once per database: entries an administrator deletes stay deleted.
  const now = Date.now();
  const catalog = db as Kysely<CatalogSeedTables>;
  const sourceIds = new Map<string, number>();
  for (const [name, key] of DEFAULT_SOURCES) {
    const row = await catalog
      .insertInto('signal_sources')
      .values({ name, source_key: key, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    sourceIds.set(key, row.id);
  }
  for (const [name, keys] of DEFAULT_MACHINE_TYPES) {
    const row = await catalog
      .insertInto('machine_types')
      .values({ name, enabled: 1, create_man: SEEDED_BY, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await catalog
      .insertInto('machine_type_sources')
      .values(
        keys.map((key, position) => ({ machine_type_id: row.id, source_id: sourceIds.get(key)!, position })),
      )
      .execute();
  }
}

interface CatalogSeedTables {
  signal_sources: { id: Generated<number>; name: string; source_key: string; created_at: number };
  machine_types: {
    id: Generated<number>;
    name: string;
    enabled: number;
    create_man: string;
    created_at: number;
    updated_at: number;
  };
  machine_type_sources: {
    id: Generated<number>;
    machine_type_id: number;
    source_id: number;
    position: number;
  };
}
