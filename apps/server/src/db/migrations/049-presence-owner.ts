import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Which instance's embedded broker holds the panel's connection while `online` is 1 (null: no
  // instance holds it, or presence comes from an external broker that every instance reads). When
  // an instance dies, a surviving or restarted one marks the panels it held offline
  // (gateway/presence-leases.ts), so `online` does not stay 1 for panels no one holds.
  await db.schema.alterTable('devices').addColumn('online_by', 'text').execute();
  await db.schema.createIndex('devices_online_by_idx').on('devices').column('online_by').execute();
  // What instances before this migration wrote has no holder, so no sweep would ever correct it:
  // every panel starts offline, and presence is learnt again as the instances start (panels
  // reconnect to an embedded broker; an external broker's retained presence is read at once).
  await sql`UPDATE devices SET online = 0 WHERE online = 1`.execute(db);
  // Each running instance's presence lease: renewed every beat; one whose `until` has passed is
  // dead, and its panels are marked offline as of its last beat (`beat_at`).
  await db.schema
    .createTable('presence_leases')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    .addColumn('beat_at', 'bigint', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .execute();
}
