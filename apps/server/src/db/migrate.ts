import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db, Dialect } from './database.js';
import * as foundation from './migrations/001-foundation.js';
import * as devices from './migrations/002-devices.js';
import * as accounts from './migrations/003-accounts.js';
import * as servers from './migrations/004-servers.js';

interface DialectMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/** Migrations in order; names are stored in the database, so never rename one. */
const migrations: Record<string, DialectMigration> = {
  '001-foundation': foundation,
  '002-devices': devices,
  '003-accounts': accounts,
  '004-servers': servers,
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
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
