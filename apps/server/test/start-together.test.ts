import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type PanelFleetApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { DeploymentMismatch } from '../src/modules/deployment/secrets.js';
import { backends, TEST_PEPPER } from './harness.js';

// Several instances on one database (issue 18, start-up): first-start work is done once when
// they start together, and an instance that does not share the deployment's secrets refuses to
// start with what to do instead of refusing every password later.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Database {
  /** DATABASE_URL for the instances, and the PostgreSQL schema they share. */
  env: Record<string, string>;
  schema?: string;
  count(sql: string): Promise<number>;
}

async function sharedDatabase(backend: 'sqlite' | 'postgres'): Promise<Database> {
  if (backend === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-together-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'shared.db');
    return {
      env: { DATABASE_URL: `sqlite:${file}` },
      async count(query) {
        const { default: Sqlite } = await import('better-sqlite3');
        const db = new Sqlite(file, { readonly: true });
        try {
          return (db.prepare(query).get() as { n: number }).n;
        } finally {
          db.close();
        }
      },
    };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  cleanups.push(async () => {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });
  return {
    env: { DATABASE_URL: url },
    schema,
    async count(query) {
      const { rows } = await admin.query(query.replaceAll('FROM ', `FROM ${schema}.`));
      return Number(rows[0].n);
    },
  };
}

/** One instance on the shared database with its own DATA_DIR (so its own generated signing key, unless given). */
async function instance(database: Database, env: Record<string, string> = {}): Promise<PanelFleetApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-instance-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    MQTT_PORT: '0',
    ADMIN_PASSWORD: 'admin123',
    PASSWORD_PEPPER: TEST_PEPPER,
    BASE_URL: 'http://panelfleet.test',
    LOG_LEVEL: 'silent',
    ...database.env,
    ...env,
  });
  const app = await buildApp(config, { logger: false, databaseSchema: database.schema });
  cleanups.push(() => app.close());
  return app;
}

async function premigrate(database: Database) {
  const db = openDatabase({ kind: 'postgres', url: database.env.DATABASE_URL! }, { schema: database.schema });
  try {
    await migrateToLatest(db);
  } finally {
    await db.close();
  }
}

const signingKey = crypto
  .generateKeyPairSync('ed25519')
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

describe.each(backends)('instances on one database (%s)', (backend) => {
  it.runIf(backend === 'postgres')(
    'two instances started together on one database both start, and the platform is made once',
    async () => {
      for (let round = 0; round < 6; round++) {
        const database = await sharedDatabase(backend);
        // Half the rounds start on a schema already migrated (an upgrade done ahead): then both
        // instances reach first-start seeding at once, with no migration to stagger them.
        if (round % 2 === 1) await premigrate(database);
        const started = await Promise.allSettled([
          instance(database, { FIRMWARE_SIGNING_KEY: signingKey }),
          instance(database, { FIRMWARE_SIGNING_KEY: signingKey }),
        ]);
        expect(started.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled']);
        expect(await database.count(`SELECT count(*) AS n FROM organisations WHERE kind = 'platform'`)).toBe(
          1,
        );
        expect(await database.count(`SELECT count(*) AS n FROM users WHERE user_name = 'admin'`)).toBe(1);
        while (cleanups.length) await cleanups.pop()!();
      }
    },
  );

  it('an instance with another password pepper refuses to start and says which setting', async () => {
    const database = await sharedDatabase(backend);
    await instance(database, { FIRMWARE_SIGNING_KEY: signingKey });
    const refused = instance(database, {
      FIRMWARE_SIGNING_KEY: signingKey,
      PASSWORD_PEPPER: 'another-pepper-0123456789',
    });
    await expect(refused).rejects.toBeInstanceOf(DeploymentMismatch);
    await expect(refused).rejects.toThrow(/PASSWORD_PEPPER differs/);
    // The same settings start again: the check is of the secret, not of the instance.
    await instance(database, { FIRMWARE_SIGNING_KEY: signingKey });
  });

  it('an instance with another firmware signing key refuses to start', async () => {
    const database = await sharedDatabase(backend);
    await instance(database, { FIRMWARE_SIGNING_KEY: signingKey });
    // No FIRMWARE_SIGNING_KEY: this instance generates its own into its DATA_DIR.
    await expect(instance(database)).rejects.toThrow(/FIRMWARE_SIGNING_KEY differs/);
  });
});
