import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class SessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { id: string; user_id: number; created_at: number; last_seen_at: number; ip: string }) {
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

  async deleteForUser(userId: number, exceptId?: string) {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptId) query = query.where('id', '!=', exceptId);
    await query.execute();
  }

  async deleteOlderThan(createdBefore: number, seenBefore: number) {
    await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('created_at', '<', createdBefore), eb('last_seen_at', '<', seenBefore)]))
      .execute();
  }
}
