import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Where the panel's current boot lies on the server's clock (receive time minus `uptimeMs` of
  // the first report written after it booted): reports of that boot are ordered by their uptime
  // (gateway/state-store.ts). And how far the panel's own wall clock was off the server's in its
  // newest report with `ts`, with that report's receive time: the console warns about a wrong clock.
  // Null until reported; no default, so adding them rewrites no row.
  for (const column of ['boot_anchor', 'clock_offset_ms', 'clock_offset_at'])
    await db.schema.alterTable('devices').addColumn(column, 'bigint').execute();
}
