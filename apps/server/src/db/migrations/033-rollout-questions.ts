import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // When the rollout engine asked a panel for the state of a row that had not moved (the
  // command sent again; null: not asked, or answered since). A row asked long enough ago whose
  // panel listened and stayed silent fails with reason timedOut.
  await db.schema.alterTable('rollout_targets').addColumn('asked_at', 'bigint').execute();
}
