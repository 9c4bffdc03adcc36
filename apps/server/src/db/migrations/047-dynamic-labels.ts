import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Dynamic labels (issue 28 item 3): a label defined by a filter (JSON, contract labelFilter)
  // instead of a list of panels; null for a label of listed panels (label_devices).
  await db.schema.alterTable('labels').addColumn('filter', 'text').execute();
  // Whether the panel is connected, as the gateway instance that saw the change last wrote it
  // (with the change's time, so an older change written later does not win): a filter on
  // "online" is then answered by the database, whichever instance holds the connection.
  await db.schema
    .alterTable('devices')
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('devices').addColumn('online_at', 'bigint').execute();
  // Member counts of filters on the indexed fields (machine type alone already has (machine_type, org_id)).
  await db.schema
    .createIndex('devices_org_ota_version_idx')
    .on('devices')
    .columns(['org_id', 'ota_version'])
    .execute();
  await db.schema.createIndex('devices_org_online_idx').on('devices').columns(['org_id', 'online']).execute();
  // Machine type and online together (a common pair: "online panels of this type") from one index.
  await db.schema
    .createIndex('devices_org_type_online_idx')
    .on('devices')
    .columns(['org_id', 'machine_type', 'online'])
    .execute();
  // A rollout to labels may keep adding panels that start to match while it runs (hawkBit's dynamic rollout).
  await db.schema
    .alterTable('rollout_tasks')
    .addColumn('keep_adding', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('rollout_tasks').addColumn('label_ids', 'text').execute();
  // The skip rules the task was made with (JSON), which panels added later pass through too.
  await db.schema.alterTable('rollout_tasks').addColumn('keep_rules', 'text').execute();
}
