import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Two changes of one release (issue 11), each independent of the other:
 *
 * 1. Signal sources get an owner (docs/ARCHITECTURE.md, "Access and tenancy"): `org_id` NULL is the
 * deployment's catalog, kept by the platform, which machine types draw their inputs from and
 * everyone reads; otherwise the distributor or company that added the source, which it and the
 * organisations below it see. A key is unique within one owner (the catalog, or one
 * organisation), no longer across the deployment, so one company's keys tell nothing about another's.
 * 2. PostgreSQL: a search anywhere lists the first matches in id order (docs/ARCHITECTURE.md,
 * "Device list paging"). When matches are common the planner walks the company's devices by
 * id checking each; this index lets it read name and key from the index alone instead of the
 * table (about half the time per device). SQLite's trigram index yields ids in order itself.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await ownSignalSources(db, dialect);
  if (dialect === 'postgres')
    await sql`CREATE INDEX devices_org_id_search_idx ON devices (org_id, id) INCLUDE (name_key, device_key)`.execute(
      db,
    );
}

async function ownSignalSources(db: Kysely<unknown>, dialect: Dialect) {
  if (dialect === 'postgres') {
    await sql`ALTER TABLE signal_sources ADD COLUMN org_id integer REFERENCES organisations(id)`.execute(db);
    // The deployment-wide unique constraint of migration 006 (named by PostgreSQL).
    await sql`DO $$
      DECLARE c record;
      BEGIN
        FOR c IN SELECT conname FROM pg_constraint
                 WHERE conrelid = 'signal_sources'::regclass AND contype = 'u'
        LOOP
          EXECUTE format('ALTER TABLE signal_sources DROP CONSTRAINT %I', c.conname);
        END LOOP;
      END $$`.execute(db);
  } else {
    await rebuildSqliteTable(db);
  }
  await sql`CREATE UNIQUE INDEX signal_sources_catalog_key_uq ON signal_sources (source_key) WHERE org_id IS NULL`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX signal_sources_owner_key_uq ON signal_sources (org_id, source_key) WHERE org_id IS NOT NULL`.execute(
    db,
  );
}

/**
 * SQLite drops a column's UNIQUE constraint only by rebuilding the table (its documented
 * procedure: foreign keys off, new table, copy, drop, rename, check). Kysely runs SQLite
 * migrations outside a transaction, so the pragma takes effect; machine_type_sources keeps
 * referring to "signal_sources" by name, which is the new table after the rename.
 */
async function rebuildSqliteTable(db: Kysely<unknown>) {
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql`CREATE TABLE signal_sources_owned (
      id integer PRIMARY KEY AUTOINCREMENT,
      name varchar(64) NOT NULL,
      source_key varchar(32) NOT NULL,
      created_at bigint NOT NULL,
      org_id integer REFERENCES organisations(id)
    )`.execute(db);
    await sql`INSERT INTO signal_sources_owned (id, name, source_key, created_at)
      SELECT id, name, source_key, created_at FROM signal_sources`.execute(db);
    await sql`DROP TABLE signal_sources`.execute(db);
    await sql`ALTER TABLE signal_sources_owned RENAME TO signal_sources`.execute(db);
    const broken = await sql`PRAGMA foreign_key_check`.execute(db);
    if (broken.rows.length) throw new Error(`signal_sources rebuild broke ${broken.rows.length} references`);
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
