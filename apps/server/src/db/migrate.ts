import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db, Dialect } from './database.js';
import * as foundation from './migrations/001-foundation.js';
import * as devices from './migrations/002-devices.js';
import * as accounts from './migrations/003-accounts.js';
import * as servers from './migrations/004-servers.js';
import * as deviceList from './migrations/005-device-list.js';
import * as catalogs from './migrations/006-catalogs.js';
import * as deviceSettings from './migrations/007-device-settings.js';
import * as materials from './migrations/008-materials.js';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Migrations in order; names are stored in the database, so never rename one. */
const migrations: Record<string, DialectMigration> = {
  '001-foundation': foundation,
  '002-devices': devices,
  '003-accounts': accounts,
  '004-servers': servers,
  '005-device-list': deviceList,
  '006-catalogs': catalogs,
  '007-device-settings': deviceSettings,
  '008-materials': materials,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, this.dialect) }]),
    );
  }
}

/** Brings the schema up to date; throws (and start-up stops) if a migration fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: new StaticProvider(db.dialect),
    // Named, because Kysely looks for its own tables in every schema and would take another's for ours.
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
    // Migrations of one release are written side by side and land in any order; each touches
    // only its own tables, so a database that has a later one may still receive an earlier one.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
