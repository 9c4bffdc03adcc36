import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The operation log's content, structured (a sentence of the catalog and what fills it), put
  // into words in the reader's language when read; `content` keeps the text a search matches.
  // Rows written before stay null: their stored English text is what they show.
  await db.schema.alterTable('operation_logs').addColumn('detail', 'text').execute();

  // How far the dashboards' history has taken in what is stored elsewhere: the last screen-time
  // row folded into its hours and days (panels report past hours late), and whether the OTA
  // installs from before the history began were counted.
  await db.schema
    .createTable('history_backfill')
    .addColumn('source', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .execute();
}
