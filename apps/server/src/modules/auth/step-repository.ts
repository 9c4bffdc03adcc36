import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Sign-ins waiting for their second step (`sign_in_steps`), by the hash of the step cookie's token. */
export class SignInStepRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { id: string; user_id: number; method: string; expires_at: number }) {
    await this.db.insertInto('sign_in_steps').values(row).execute();
  }

  /** The waiting sign-in with its user, while it lives. */
  findLive(id: string, now: number) {
    return this.db
      .selectFrom('sign_in_steps')
      .innerJoin('users', 'users.id', 'sign_in_steps.user_id')
      .select([
        'sign_in_steps.id',
        'sign_in_steps.method',
        'users.id as user_id',
        'users.org_id',
        'users.user_name',
        'users.user_type',
        'users.program_role',
        'users.enabled',
      ])
      .where('sign_in_steps.id', '=', id)
      .where('sign_in_steps.expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Spends the step: only one request ends it, also when several arrive at once. */
  async take(id: string): Promise<boolean> {
    const deleted = await this.db.deleteFrom('sign_in_steps').where('id', '=', id).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  async purgeExpired(now: number): Promise<void> {
    await this.db.deleteFrom('sign_in_steps').where('expires_at', '<=', now).execute();
  }
}
