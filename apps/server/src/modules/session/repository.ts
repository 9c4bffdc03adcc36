import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class SessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: {
    id: string;
    user_id: number;
    created_at: number;
    last_seen_at: number;
    ip: string;
    ref: string;
    method: string;
    user_agent: string;
  }) {
    await this.db.insertInto('sessions').values(row).execute();
  }

  /** The session with what a request needs of its user. */
  findWithUser(id: string) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id',
        'sessions.created_at',
        'sessions.last_seen_at',
        'users.id as user_id',
        'users.org_id',
        'users.user_name',
        'users.user_type',
        'users.activated',
        'users.enabled',
        'users.program_role',
        'users.valid_begin',
        'users.valid_end',
      ])
      .where('sessions.id', '=', id)
      .executeTakeFirst();
  }

  async touch(id: string, at: number) {
    await this.db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
  }

  async delete(id: string) {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Deletes the user's sessions but `exceptId`; answers how many ended. */
  async deleteForUser(userId: number, exceptId?: string): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId) query = query.where('id', '!=', exceptId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The user's sessions, newest first (at most `limit`). */
  listForUser(userId: number, limit: number) {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'ref', 'created_at', 'last_seen_at', 'ip', 'method', 'user_agent'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('ref')
      .limit(limit)
      .execute();
  }

  /** Deletes one session of the user by its reference; answers its row, or undefined when the user has none such. */
  async deleteByRef(userId: number, ref: string) {
    return this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('ref', '=', ref)
      .returning(['id', 'ip', 'user_agent'])
      .executeTakeFirst();
  }

  async deleteOlderThan(createdBefore: number, seenBefore: number) {
    await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('created_at', '<', createdBefore), eb('last_seen_at', '<', seenBefore)]))
      .execute();
  }
}
