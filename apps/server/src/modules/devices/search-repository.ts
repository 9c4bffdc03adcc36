import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/database.js';

/** `text` as an FTS5 phrase: with the trigram tokenizer, rows that contain it anywhere. */
export const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** `%text%` for LIKE with the wildcards in `text` taken literally (ESCAPE '\\'). */
export const anywhere = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Devices (as `d`) whose name or key contains `text` (lowered, at least TRIGRAM characters): the
 * device list's search anywhere. SQLite asks the FTS5 trigram index (migration 011), PostgreSQL
 * the pg_trgm indexes of name_key and lower(device_key).
 */
export function containsText(dialect: Dialect, text: string): RawBuilder<boolean> {
  return dialect === 'sqlite'
    ? sql<boolean>`d.id IN (SELECT rowid FROM device_search WHERE device_search MATCH ${phrase(text)})`
    : sql<boolean>`(d.name_key LIKE ${anywhere(text)} ESCAPE '\\' OR lower(d.device_key) LIKE ${anywhere(text)} ESCAPE '\\')`;
}
