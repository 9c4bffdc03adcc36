import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Search anywhere in a device's name or key (docs/ARCHITECTURE.md, "Device list paging"), served
 * by a trigram index on both engines:
 *
 * - SQLite: `device_search`, an FTS5 table with the trigram tokenizer (letter case folded),
 *   contentless (it keeps only the index), rowid = devices.id, columns name_key and device_key.
 *   Triggers keep it, so every writer is covered, as for the list order (migration 005).
 * - PostgreSQL: pg_trgm GIN indexes on name_key and lower(device_key), which serve
 *   `LIKE '%text%'` directly. The extension lives where it was installed (public by default);
 *   the operator class is named with that schema because the server may run with another
 *   search_path.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    const schema = await trigramSchema(db);
    const ops = sql.raw(`${quoteIdent(schema)}.gin_trgm_ops`);
    await sql`CREATE INDEX devices_name_trgm_idx ON devices USING gin (name_key ${ops})`.execute(db);
    await sql`CREATE INDEX devices_key_trgm_idx ON devices USING gin (lower(device_key) ${ops})`.execute(db);
    return;
  }
  await sql`CREATE VIRTUAL TABLE device_search USING fts5(name_key, device_key, content='', contentless_delete=1, tokenize='trigram')`.execute(
    db,
  );
  await sql`INSERT INTO device_search (rowid, name_key, device_key) SELECT id, name_key, device_key FROM devices`.execute(
    db,
  );
  await sql`CREATE TRIGGER devices_search_insert AFTER INSERT ON devices BEGIN
    INSERT INTO device_search (rowid, name_key, device_key) VALUES (NEW.id, NEW.name_key, NEW.device_key);
  END`.execute(db);
  await sql`CREATE TRIGGER devices_search_delete AFTER DELETE ON devices BEGIN
    DELETE FROM device_search WHERE rowid = OLD.id;
  END`.execute(db);
  await sql`CREATE TRIGGER devices_search_update AFTER UPDATE OF name, device_key ON devices BEGIN
    DELETE FROM device_search WHERE rowid = OLD.id;
    INSERT INTO device_search (rowid, name_key, device_key) VALUES (NEW.id, NEW.name_key, NEW.device_key);
  END`.execute(db);
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The schema pg_trgm is installed in, installing it in public when it is missing. */
async function trigramSchema(db: Kysely<unknown>): Promise<string> {
  const find = async () =>
    (
      await sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension e
        JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const found = await find();
  if (found) return found;
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
  } catch (err) {
    // Two servers migrating at once: the other one installed it between our look and our create.
    const installed = await find();
    if (installed) return installed;
    throw err;
  }
  const installed = await find();
  if (!installed) throw new Error('pg_trgm did not install');
  return installed;
}
