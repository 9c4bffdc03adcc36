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
import * as panelClocks from './migrations/030-panel-clocks.js';
import * as facetChanges from './migrations/032-facet-changes.js';
import * as rolloutQuestions from './migrations/033-rollout-questions.js';
import * as wordsAndHistory from './migrations/035-words-and-history.js';
import * as sameTask from './migrations/036-same-task.js';
import * as removedPanels from './migrations/037-removed-panels.js';
import * as reminderOwners from './migrations/038-reminder-owners.js';
import * as alerts from './migrations/039-alerts.js';
import * as apiTokens from './migrations/041-api-tokens.js';
import * as webhooks from './migrations/040-webhooks.js';
import * as secondFactor from './migrations/044-second-factor.js';
import * as sso from './migrations/045-sso.js';
import * as screenshots from './migrations/042-screenshots.js';
import * as panelHistory from './migrations/043-panel-history.js';
import * as historyReads from './migrations/046-history-reads.js';
import * as dynamicLabels from './migrations/047-dynamic-labels.js';
import * as deviceImport from './migrations/048-device-import.js';
import * as presenceOwner from './migrations/049-presence-owner.js';

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
  '030-panel-clocks': panelClocks,
  '032-facet-changes': facetChanges,
  '033-rollout-questions': rolloutQuestions,
  '035-words-and-history': wordsAndHistory,
  '036-same-task': sameTask,
  '037-removed-panels': removedPanels,
  '038-reminder-owners': reminderOwners,
  '039-alerts': alerts,
  '041-api-tokens': apiTokens,
  '040-webhooks': webhooks,
  '044-second-factor': secondFactor,
  '045-sso': sso,
  '042-screenshots': screenshots,
  '043-panel-history': panelHistory,
  '046-history-reads': historyReads,
  '047-dynamic-labels': dynamicLabels,
  '048-device-import': deviceImport,
  '049-presence-owner': presenceOwner,
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
