import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

/**
 * OTA firmware rollouts: resumable uploads, the OTA version catalog, upgrade policies, OTA files
 * with their descriptions, and the rollout engine's tasks, waves and per-panel rows. Panels also
 * report their UTC offset (policies' time-zone windows).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('devices').addColumn('utc_offset', 'integer').execute();

  // tus uploads: the bytes live in DATA_DIR/uploads/{id}; a row is 'receiving' until complete.
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('user_id', 'integer')
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('md5', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('uploads_state_idx').on('uploads').columns(['state', 'created_at']).execute();

  // The deployment's catalog of firmware versions (spec 3 section 2.4), like machine types.
  await withId(db.schema.createTable('ota_versions'), dialect)
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('update_man', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('ota_rules'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('remark', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('enable_ip', 'integer', (c) => c.notNull())
    .addColumn('enable_timezone', 'integer', (c) => c.notNull())
    .addColumn('enable_sn', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('ota_rules_org_name_uq', ['org_id', 'name'])
    .execute();
  await withId(db.schema.createTable('ota_rule_zones'), dialect)
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('ota_rules.id').onDelete('cascade'))
    .addColumn('time_zone', 'varchar(16)', (c) => c.notNull())
    .addColumn('utc_offset', 'integer', (c) => c.notNull())
    .addColumn('start_time', 'varchar(19)', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('remark', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addUniqueConstraint('ota_rule_zones_uq', ['rule_id', 'time_zone'])
    .execute();
  await withId(db.schema.createTable('ota_rule_ips'), dialect)
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('ota_rules.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(18)', (c) => c.notNull())
    .addUniqueConstraint('ota_rule_ips_uq', ['rule_id', 'ip'])
    .execute();
  await withId(db.schema.createTable('ota_rule_serials'), dialect)
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('ota_rules.id').onDelete('cascade'))
    .addColumn('device_key', 'varchar(64)', (c) => c.notNull())
    .addUniqueConstraint('ota_rule_serials_uq', ['rule_id', 'device_key'])
    .execute();

  // Firmware files: the image under DATA_DIR/files/ota, its hashes and its signed manifest.
  await withId(db.schema.createTable('ota_files'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('stored_path', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('ota_version', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    // No cascade: a policy named by a file is refused deletion.
    .addColumn('rule_id', 'integer', (c) => c.references('ota_rules.id'))
    .addColumn('remark', 'varchar(400)', (c) => c.notNull().defaultTo(''))
    .addColumn('manifest', 'text', (c) => c.notNull())
    .addColumn('signature', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('ota_files_org_version_uq', ['org_id', 'ota_version'])
    .execute();
  // What a file fits: machine types and from-versions of the catalogs (their reference counts).
  await db.schema
    .createTable('ota_file_machine_types')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('ota_files.id').onDelete('cascade'))
    .addColumn('machine_type_id', 'integer', (c) => c.notNull().references('machine_types.id'))
    .addPrimaryKeyConstraint('ota_file_machine_types_pk', ['file_id', 'machine_type_id'])
    .execute();
  await db.schema
    .createIndex('ota_file_machine_types_mt_idx')
    .on('ota_file_machine_types')
    .column('machine_type_id')
    .execute();
  await db.schema
    .createTable('ota_file_versions')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('ota_files.id').onDelete('cascade'))
    .addColumn('version_id', 'integer', (c) => c.notNull().references('ota_versions.id'))
    .addPrimaryKeyConstraint('ota_file_versions_pk', ['file_id', 'version_id'])
    .execute();
  await db.schema
    .createIndex('ota_file_versions_v_idx')
    .on('ota_file_versions')
    .column('version_id')
    .execute();

  await withId(db.schema.createTable('ota_descriptions'), dialect)
    .addColumn('file_id', 'integer', (c) => c.notNull().references('ota_files.id').onDelete('cascade'))
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('text_content', 'text', (c) => c.notNull())
    .addColumn('remind_text', 'text', (c) => c.notNull())
    .addColumn('create_user', 'varchar(64)', (c) => c.notNull())
    .addColumn('update_user', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('ota_descriptions_uq', ['file_id', 'language'])
    .execute();

  // The rollout engine (generic over the payload kind): a task, its waves, a row per panel.
  await withId(db.schema.createTable('rollout_tasks'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('payload_id', 'integer', (c) => c.notNull())
    // JSON: what the kind needs at dispatch and what lists show (file name, version, ...).
    .addColumn('payload', 'text', (c) => c.notNull())
    // What lists filter the task by (OTA: the version it installs).
    .addColumn('payload_label', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('state_reason', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('state_vars', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('time_enable', 'integer', (c) => c.notNull())
    .addColumn('fire_at', 'bigint', (c) => c.notNull())
    .addColumn('fire_by', 'bigint')
    .addColumn('fired_at', 'bigint')
    .addColumn('wave_mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('success_share', 'integer', (c) => c.notNull())
    .addColumn('failure_share', 'integer', (c) => c.notNull())
    .addColumn('min_results', 'integer', (c) => c.notNull())
    .addColumn('current_wave', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('wave_count', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('max_downloads', 'integer')
    .addColumn('created_by', 'integer')
    .addColumn('created_by_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    // Which server instance works the task until when (claimed with FOR UPDATE SKIP LOCKED on PostgreSQL).
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'bigint')
    .execute();
  await db.schema
    .createIndex('rollout_tasks_org_idx')
    .on('rollout_tasks')
    .columns(['org_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('rollout_tasks_state_idx')
    .on('rollout_tasks')
    .columns(['state', 'fire_at'])
    .execute();
  await db.schema
    .createIndex('rollout_tasks_payload_idx')
    .on('rollout_tasks')
    .columns(['kind', 'payload_id'])
    .execute();

  await db.schema
    .createTable('rollout_waves')
    .addColumn('task_id', 'integer', (c) => c.notNull().references('rollout_tasks.id').onDelete('cascade'))
    .addColumn('wave', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addPrimaryKeyConstraint('rollout_waves_pk', ['task_id', 'wave'])
    .execute();

  await withId(db.schema.createTable('rollout_targets'), dialect)
    .addColumn('task_id', 'integer', (c) => c.notNull().references('rollout_tasks.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('wave', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('reason', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('from_version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('command_id', 'varchar(36)')
    .addColumn('not_before', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rollout_targets_task_idx')
    .on('rollout_targets')
    .columns(['task_id', 'state', 'wave', 'id'])
    .execute();
  await db.schema
    .createIndex('rollout_targets_device_idx')
    .on('rollout_targets')
    .columns(['device_id', 'state'])
    .execute();
  await db.schema
    .createIndex('rollout_targets_command_idx')
    .on('rollout_targets')
    .column('command_id')
    .execute();
  // The download slots in use across all tasks (states sent and downloading).
  await db.schema
    .createIndex('rollout_targets_state_idx')
    .on('rollout_targets')
    .columns(['state', 'device_id'])
    .execute();
  await db.schema
    .createIndex('rollout_targets_org_idx')
    .on('rollout_targets')
    .columns(['org_id', 'id'])
    .execute();
}
