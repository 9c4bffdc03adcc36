import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('enrollment_secrets')
    .addColumn('org_id', 'integer', (c) => c.primaryKey().references('organisations.id'))
    // Shown to the company's administrators, so kept readable; lookups go through the hash.
    .addColumn('secret', 'varchar(64)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('rotated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('devices'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('device_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('machine_type', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('ota_version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('public_ip', 'varchar(45)', (c) => c.notNull().defaultTo(''))
    .addColumn('local_ip', 'varchar(45)', (c) => c.notNull().defaultTo(''))
    .addColumn('netmask', 'varchar(45)', (c) => c.notNull().defaultTo(''))
    .addColumn('mac', 'varchar(17)', (c) => c.notNull().defaultTo(''))
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('ram_total', 'bigint')
    .addColumn('ram_used', 'bigint')
    .addColumn('apk_current', 'bigint')
    .addColumn('apk_total', 'bigint')
    .addColumn('ota_current', 'bigint')
    .addColumn('ota_total', 'bigint')
    .addColumn('network_intensity', 'integer')
    .addColumn('network_state', 'varchar(16)')
    .addColumn('cpu_temperature', 'double precision')
    .addColumn('brightness', 'integer')
    .addColumn('volume', 'integer')
    .addColumn('mute', 'integer')
    .addColumn('source', 'varchar(32)')
    .addColumn('power', 'varchar(16)')
    .addColumn('last_seen_at', 'bigint')
    .addColumn('enrolled_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('devices_org_name_idx')
    .on('devices')
    .columns(['org_id', 'name', 'id'])
    .execute();

  await withId(db.schema.createTable('groups'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('groups_org_name_uq', ['org_id', 'name'])
    .execute();

  await db.schema
    .createTable('group_devices')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_devices_pk', ['group_id', 'device_id'])
    .execute();
  await db.schema.createIndex('group_devices_device_idx').on('group_devices').column('device_id').execute();

  await db.schema
    .createTable('commands')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('order_code', 'varchar(16)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('detail', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    // A Wake-on-LAN relay command points at the POWERUP command it serves.
    .addColumn('relay_for', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('commands_device_status_idx')
    .on('commands')
    .columns(['device_id', 'status'])
    .execute();
  await db.schema
    .createIndex('commands_status_expiry_idx')
    .on('commands')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('commands_org_created_idx')
    .on('commands')
    .columns(['org_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('device_apps')
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('package_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('app_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('version_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('app_size', 'bigint', (c) => c.notNull())
    .addColumn('app_level', 'integer', (c) => c.notNull())
    .addColumn('icon_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('device_apps_pk', ['device_id', 'package_name'])
    .execute();

  await withId(db.schema.createTable('app_usage'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('package_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('app_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('app_usage_device_time_idx')
    .on('app_usage')
    .columns(['device_id', 'started_at'])
    .execute();

  await withId(db.schema.createTable('screen_time'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('from_at', 'bigint', (c) => c.notNull())
    .addColumn('to_at', 'bigint', (c) => c.notNull())
    .addColumn('screen_on_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('screen_time_device_time_idx')
    .on('screen_time')
    .columns(['device_id', 'from_at'])
    .execute();

  await withId(db.schema.createTable('abnormal_logs'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('device_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('app_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('upload_date', 'bigint', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('abnormal_logs_org_date_idx')
    .on('abnormal_logs')
    .columns(['org_id', 'upload_date'])
    .execute();
}
