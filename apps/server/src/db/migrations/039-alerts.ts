import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import { withId } from './columns.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // Alert rules of an organisation (issue 26): what they watch (`kind` and its `condition` as
  // JSON), the labels they narrow to and where their alerts go (JSON), and the language the rule
  // was saved in (mail to plain addresses is written in it).
  await withId(db.schema.createTable('alert_rules'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('duration_seconds', 'integer', (c) => c.notNull())
    .addColumn('label_ids', 'text', (c) => c.notNull())
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_rules_org_idx').on('alert_rules').columns(['org_id', 'id']).execute();

  // Alerts: one row per raise, kept after it clears (the history). `since_at` is when the
  // condition began to hold for this subject: a subject is raised again only for a later start.
  await withId(db.schema.createTable('alerts'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('rule_id', 'integer', (c) => c.notNull())
    .addColumn('rule_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('subject_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('device_id', 'integer')
    .addColumn('device_key', 'varchar(128)')
    .addColumn('task_kind', 'varchar(16)')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('detail_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('detail_vars', 'text', (c) => c.notNull())
    .addColumn('since_at', 'bigint', (c) => c.notNull())
    .addColumn('raised_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('acknowledged_at', 'bigint')
    .addColumn('acknowledged_by', 'varchar(64)')
    .addColumn('note', 'varchar(500)')
    .addColumn('cleared_at', 'bigint')
    .addColumn('cleared_by', 'varchar(64)')
    .execute();
  // One open alert per rule and subject, however many instances raise it at once.
  await db.schema
    .createIndex('alerts_open_uq')
    .on('alerts')
    .columns(['rule_id', 'subject_key'])
    .unique()
    .where(sql.ref('cleared_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('alerts_rule_subject_idx')
    .on('alerts')
    .columns(['rule_id', 'subject_key', 'since_at'])
    .execute();
  await db.schema
    .createIndex('alerts_org_raised_idx')
    .on('alerts')
    .columns(['org_id', 'raised_at'])
    .execute();
  await db.schema.createIndex('alerts_org_state_idx').on('alerts').columns(['org_id', 'state']).execute();

  // Since when a condition without a stored start (thresholds, log counts, failure shares) holds.
  await db.schema
    .createTable('alert_pending')
    .addColumn('rule_id', 'integer', (c) => c.notNull())
    .addColumn('subject_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('since_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_pending_pk', ['rule_id', 'subject_key'])
    .execute();

  // Mail to send: one row per alert change and recipient, claimed by the instance that sends it.
  await withId(db.schema.createTable('alert_mail_outbox'), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('recipient', 'varchar(254)', (c) => c.notNull())
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('digest', 'integer', (c) => c.notNull())
    .addColumn('alert_id', 'integer', (c) => c.notNull())
    .addColumn('change', 'varchar(16)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_by', 'varchar(64)')
    .addColumn('claimed_until', 'bigint')
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('alert_mail_outbox_waiting_idx')
    .on('alert_mail_outbox')
    .columns(['sent_at', 'recipient'])
    .execute();

  // The console language a user last used (their alert mail is written in it).
  await db.schema
    .createTable('alert_user_languages')
    .addColumn('user_id', 'integer', (c) => c.primaryKey())
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .execute();

  // What the evaluation reads each round: recent failed commands, recent abnormal logs of a company.
  await db.schema
    .createIndex('commands_status_updated_idx')
    .on('commands')
    .columns(['status', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('abnormal_logs_org_occurred_idx')
    .on('abnormal_logs')
    .columns(['org_id', 'occurred_at'])
    .execute();
}
