import { sql, type RawBuilder } from 'kysely';

/**
 * `column LIKE %text%` regardless of letter case and with the wildcards in `text` taken literally,
 * in SQLite and PostgreSQL alike (PostgreSQL's LIKE is case-sensitive); for small tables, as no
 * index serves it.
 */
export function containsFolded(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  return sql<boolean>`lower(${sql.ref(column)}) LIKE ${pattern} ESCAPE '\\'`;
}
