import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * One name for one concept: the spec's label = group = tag is a label in the server's code and
 * tables (the contract keeps its wire names: /platform/group/*, groupId, tagIds, tag).
 * groups -> labels, group_devices -> label_devices, group_id -> label_id. PostgreSQL also renames
 * the constraints, the index and the id sequence; SQLite renames the index, while the constraint
 * names inside its table definitions stay (SQLite renames a constraint only by rebuilding the table).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('groups').renameTo('labels').execute();
  await db.schema.alterTable('group_devices').renameTo('label_devices').execute();
  await db.schema.alterTable('label_devices').renameColumn('group_id', 'label_id').execute();
  if (dialect === 'postgres') {
    await sql`DO $$
      DECLARE c record;
      BEGIN
        FOR c IN SELECT conname, conrelid::regclass AS tbl FROM pg_constraint
                 WHERE conrelid IN ('labels'::regclass, 'label_devices'::regclass) AND conname LIKE '%group%'
        LOOP
          EXECUTE format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', c.tbl, c.conname, replace(c.conname, 'group', 'label'));
        END LOOP;
      END $$`.execute(db);
    await sql`ALTER INDEX group_devices_device_idx RENAME TO label_devices_device_idx`.execute(db);
    await sql`ALTER SEQUENCE IF EXISTS groups_id_seq RENAME TO labels_id_seq`.execute(db);
  } else {
    await db.schema.dropIndex('group_devices_device_idx').execute();
    await db.schema.createIndex('label_devices_device_idx').on('label_devices').column('device_id').execute();
  }
}
