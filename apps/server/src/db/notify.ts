import { sql } from 'kysely';
import type { Db } from './database.js';

/** PostgreSQL's NOTIFY through the server's pool: what the shared event bus sends with. */
export function notifyThrough(db: Db) {
  return async (channel: string, payload: string) => {
    await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db.kysely);
  };
}
