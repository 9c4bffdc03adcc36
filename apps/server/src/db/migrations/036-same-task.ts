import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What a task sends where, as a digest (a force upgrade: the file to these labels; a publish:
  // this revision to these panels). While a task is open no second one with the same kind,
  // payload and digest can be made: a double click or a retry, even on another instance, does
  // not send the same image twice. Tasks made before, and kinds without a digest, hold null.
  await db.schema.alterTable('rollout_tasks').addColumn('same_key', 'varchar(64)').execute();
  await sql`CREATE UNIQUE INDEX rollout_tasks_open_same ON rollout_tasks (org_id, kind, payload_id, same_key)
    WHERE state IN ('scheduled', 'running', 'paused')`.execute(db);
}
