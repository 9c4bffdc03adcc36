import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

/**
 * Programs (playlists panels play) with their two-level approval (spec 2 sections 3-6), the
 * materials each program plays (so a material in use is not deleted and another company's is
 * never named), the recorded approval steps, and the download percentage panels report while
 * fetching a published program.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('programs'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('play_time', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    // The ordered items as JSON (the spec's `content`).
    .addColumn('content', 'text', (c) => c.notNull())
    // Bumped by every change: a change is written only over the revision it was decided on.
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    // The approval round the console shows; a submission or an edit of an approved program starts one.
    .addColumn('round', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('created_by_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('programs_org_idx').on('programs').columns(['org_id', 'id']).execute();

  await db.schema
    .createTable('program_materials')
    .addColumn('program_id', 'integer', (c) => c.notNull().references('programs.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('material_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('program_materials_pk', ['program_id', 'material_id'])
    .execute();
  await db.schema
    .createIndex('program_materials_material_idx')
    .on('program_materials')
    .columns(['org_id', 'material_id'])
    .execute();

  await withId(db.schema.createTable('approval_steps'), dialect)
    .addColumn('program_id', 'integer', (c) => c.notNull().references('programs.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    // 0 the creator's submission, 1 and 2 the approval levels.
    .addColumn('role', 'integer', (c) => c.notNull())
    // 1 pass (or submit), 0 refuse.
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(200)', (c) => c.notNull())
    .addColumn('from_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('to_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('added_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('approval_steps_program_idx')
    .on('approval_steps')
    .columns(['program_id', 'round', 'id'])
    .execute();

  // Percent of a published program's files a panel has fetched, per command (its acknowledgements).
  await db.schema
    .createTable('program_download_progress')
    .addColumn('command_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('percent', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
