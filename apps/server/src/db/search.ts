import { sql, type RawBuilder } from 'kysely';

/** `column LIKE %text%` with the wildcards in `text` taken literally, in SQLite and PostgreSQL alike. */
export function contains(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.replace(/[\\%_]/g, '\\$&')}%`;
  return sql<boolean>`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`;
}
