import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class CaptchaRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a captcha (replacing this browser's earlier one) and drops the expired ones. */
  async put(id: string, answer: string, expiresAt: number, now: number) {
    await this.db.deleteFrom('captchas').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('captchas')
      .values({ id, answer, expires_at: expiresAt })
      .onConflict((oc) => oc.column('id').doUpdateSet({ answer, expires_at: expiresAt }))
      .execute();
  }

  /** Reads and deletes in one go: a captcha answers once, right or wrong. */
  async take(id: string) {
    return this.db
      .deleteFrom('captchas')
      .where('id', '=', id)
      .returning(['answer', 'expires_at'])
      .executeTakeFirst();
  }

  /**
   * The answer without taking it: for the demo's seeding, which signs in through the console's
   * calls like an operator reading the image would. Never reachable from a route.
   */
  async peekForSeeding(id: string) {
    const row = await this.db.selectFrom('captchas').select('answer').where('id', '=', id).executeTakeFirst();
    return row?.answer;
  }
}
