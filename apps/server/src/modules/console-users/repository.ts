import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { containsFolded } from '../../db/search.js';

export class ConsoleUserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private scoped(orgId: number, userName?: string) {
    let query = this.db.selectFrom('users').where('org_id', '=', orgId).where('user_type', 'in', ['3', '4']);
    if (userName) query = query.where(containsFolded('users.user_name', userName));
    return query;
  }

  /** A page of the organisation's console users with their online flag (a live session). */
  page(orgId: number, offset: number, limit: number, onlineSince: number, userName?: string) {
    return this.scoped(orgId, userName)
      .select([
        'id', 'user_name', 'user_type', 'phone', 'email', 'enabled', 'program_role', 'remark', 'valid_begin', 'valid_end',
        (eb) =>
          eb.exists(eb.selectFrom('sessions').select(sql.lit(1).as('one')).whereRef('sessions.user_id', '=', 'users.id').where('sessions.last_seen_at', '>', onlineSince)).as('online'),
      ])
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async count(orgId: number, userName?: string): Promise<number> {
    const row = await this.scoped(orgId, userName).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async update(id: number, changes: { enabled: number; remark: string; program_role?: number; valid_begin: number | null; valid_end: number | null }) {
    await this.db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }
}
