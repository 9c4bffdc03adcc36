import {
  Migrator,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely';
import type { Db, Dialect } from './database.js';
import * as foundation from './migrations/001-foundation.js';
import * as devices from './migrations/002-devices.js';
import * as accounts from './migrations/003-accounts.js';
import * as servers from './migrations/004-servers.js';
import * as deviceList from './migrations/005-device-list.js';
import * as catalogs from './migrations/006-catalogs.js';
import * as deviceSettings from './migrations/007-device-settings.js';
import * as materials from './migrations/008-materials.js';
import * as commandRequests from './migrations/009-command-requests.js';
import * as labelNames from './migrations/010-label-names.js';
import * as nameSearch from './migrations/011-name-search.js';
import * as ota from './migrations/012-ota.js';
import * as apk from './migrations/013-apk.js';
import * as settings from './migrations/014-settings.js';
import * as certificate from './migrations/014b-certificate.js';
import * as reportsLogs from './migrations/016-reports-logs.js';
import * as dashboards from './migrations/017-dashboards.js';
import * as deploymentSecrets from './migrations/018-deployment-secrets.js';
import * as appReports from './migrations/019-app-reports.js';
import * as sourcesAndSearch from './migrations/020-sources-and-search.js';
import * as programs from './migrations/021-programs.js';
import * as jobLeases from './migrations/022-job-leases.js';
import * as usageLongest from './migrations/026-usage-longest.js';
import * as usageCovering from './migrations/027-usage-covering.js';
import * as reportTimes from './migrations/028-report-times.js';

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
  '009-command-requests': commandRequests,
  '010-label-names': labelNames,
  '011-name-search': nameSearch,
  '012-ota': ota,
  '013-apk': apk,
  '014-settings': settings,
  '014b-certificate': certificate,
  '016-reports-logs': reportsLogs,
  '017-dashboards': dashboards,
  '018-deployment-secrets': deploymentSecrets,
  '019-app-reports': appReports,
  '020-sources-and-search': sourcesAndSearch,
  '021-programs': programs,
  '022-job-leases': jobLeases,
  '026-usage-longest': usageLongest,
  '027-usage-covering': usageCovering,
  '028-report-times': reportTimes,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, m]) => [
        name,
        { up: (db: Kysely<unknown>) => m.up(db, this.dialect) },
      ]),
    );
  }
}

function migrator(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: new StaticProvider(db.dialect),
    // Named, because Kysely looks for its own tables in every schema and would take another's for ours.
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
    // Migrations of one release are written side by side and land in any order; each touches
    // only its own tables, so a database that has a later one may still receive an earlier one.
    allowUnorderedMigrations: true,
  });
}

function applied(outcome: MigrationResultSet): string[] {
  const { error, results } = outcome;
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Brings the schema up to date; throws (and start-up stops) if a migration fails. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return applied(await migrator(db).migrateToLatest());
}

/** Brings the schema up to the named migration (tests of what a migration does to existing rows). */
export async function migrateTo(db: Db, name: string): Promise<string[]> {
  return applied(await migrator(db).migrateTo(name));
}
