import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Each panel's history (issue 27 item 5): one row per field group a report changed, written by
  // the gateway's state writer in the statement batch that writes the panel's row, and presence
  // changes. n1..n3 and txt hold the group's values (modules/panel-history/groups.ts).
  await db.schema
    .createTable('panel_history')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('grp', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('n1', 'double precision')
    .addColumn('n2', 'double precision')
    .addColumn('n3', 'double precision')
    .addColumn('txt', 'text')
    .execute();
  await db.schema
    .createIndex('panel_history_device_at_idx')
    .on('panel_history')
    .columns(['device_id', 'at'])
    .execute();
  // No index on time alone: each one costs every history row written at ingest. The roll-up and
  // retention job reaches old rows panel by panel through (device_id, at).
  // Past the raw window the numeric groups are kept per hour: average, minimum and maximum.
  await db.schema
    .createTable('panel_history_hourly')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('grp', 'text', (c) => c.notNull())
    .addColumn('hour', 'bigint', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull())
    .addColumn('n1', 'double precision')
    .addColumn('n1_min', 'double precision')
    .addColumn('n1_max', 'double precision')
    .addColumn('n2', 'double precision')
    .addColumn('n3', 'double precision')
    .addColumn('txt', 'text')
    .addPrimaryKeyConstraint('panel_history_hourly_pk', ['device_id', 'hour', 'grp'])
    .execute();
  await db.schema
    .createIndex('panel_history_hourly_hour_idx')
    .on('panel_history_hourly')
    .columns(['hour'])
    .execute();
  // Proof of play (issue 27 item 6, protocol 5.10): one row per time a program played on a panel,
  // stored once per panel and report id.
  await db.schema
    .createTable('play_records')
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('device_id', 'integer', (c) => c.notNull())
    .addColumn('report_id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'integer', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('command_id', 'text')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('play_records_pk', ['device_id', 'report_id'])
    .execute();
  await db.schema
    .createIndex('play_records_org_started_idx')
    .on('play_records')
    .columns(['org_id', 'started_at'])
    .execute();
}
