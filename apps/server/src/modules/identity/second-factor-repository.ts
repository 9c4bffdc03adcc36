import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * The SQL of the second factor. A row is the user's own: every method takes the user id of the
 * signed-in user or of a sign-in whose password was right, or (an administrator's reset) of a user
 * the caller's organisation was checked to hold.
 */
export class SecondFactorRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(userId: number) {
    return this.db.selectFrom('second_factors').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** A new secret waiting for its first code, replacing one that waited; none while a confirmed one exists. */
  async startPending(userId: number, secret: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('second_factors')
        .where('user_id', '=', userId)
        .where('confirmed_at', 'is', null)
        .execute();
      const inserted = await trx
        .insertInto('second_factors')
        .values({ user_id: userId, secret, confirmed_at: null, last_step: 0, created_at: now })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    });
  }

  /** Confirms the pending secret with the step of its first code and keeps the recovery codes' hashes. */
  async confirm(userId: number, step: number, now: number, codeHashes: string[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('second_factors')
        .set({ confirmed_at: now, last_step: step })
        .where('user_id', '=', userId)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('recovery_codes')
        .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
        .execute();
      return true;
    });
  }

  /**
   * Takes a code's 30-second step: only a step newer than the last accepted one passes, in one
   * statement, so a code replayed (or sent twice at once) counts once.
   */
  async claimStep(userId: number, step: number): Promise<boolean> {
    const updated = await this.db
      .updateTable('second_factors')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .where('last_step', '<', step)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /** Spends a recovery code (once, also under parallel use). */
  async spendRecoveryCode(userId: number, codeHash: string, now: number): Promise<boolean> {
    const updated = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  async recoveryLeft(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Removes the user's second factor and recovery codes; answers whether there was one. */
  async remove(userId: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      const deleted = await trx.deleteFrom('second_factors').where('user_id', '=', userId).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    });
  }

  /** Whether the organisation requires a second factor of its users. */
  async required(orgId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('organisations')
      .select('require_second_factor')
      .where('id', '=', orgId)
      .executeTakeFirst();
    return row?.require_second_factor === 1;
  }

  async setRequired(orgId: number, required: boolean): Promise<void> {
    await this.db
      .updateTable('organisations')
      .set({ require_second_factor: required ? 1 : 0 })
      .where('id', '=', orgId)
      .execute();
  }
}
