import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Panels removed with their history kept (issue 25 item 13) move to an organisation of kind
  // 'archive' (made at the first such removal), which no user belongs to and no scope reaches:
  // every company-scoped query stops seeing them, while the rows they reported keep their company
  // and stay in its reports and logs. `removed_from` names that company, whose enrollment secret
  // may bring the serial back with its history.
  await db.schema.alterTable('devices').addColumn('removed_from', 'integer').execute();
}
