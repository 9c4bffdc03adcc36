import type { Insertable, Kysely } from 'kysely';
import type { AccountTokensTable } from '../../db/schema-accounts.js';
import type { Database } from '../../db/schema.js';

/** Activation and reset tokens of one user (by hash); every statement names the user or the token. */
export class AccountTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user's earlier tokens of this purpose are deleted and the new one stored, together. */
  async replace(row: Insertable<AccountTokensTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('account_tokens')
        .where('user_id', '=', row.user_id)
        .where('purpose', '=', row.purpose)
        .execute();
      await trx.insertInto('account_tokens').values(row).execute();
    });
  }

  /** The unused, unexpired token with this hash and purpose. */
  findLive(id: string, purpose: AccountTokensTable['purpose'], now: number) {
    return this.db
      .selectFrom('account_tokens')
      .select(['id', 'user_id', 'link_id', 'created_at'])
      .where('id', '=', id)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Marks the token used; false if another request spent it first. */
  async spend(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
