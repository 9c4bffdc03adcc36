import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { randomToken, tokenHash } from '../../security/tokens.js';

export type TokenPurpose = 'activation' | 'reset';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = { activation: 24 * 60 * 60_000, reset: 30 * 60_000 };

export interface IssuedToken {
  token: string;
  linkId: string;
  issuedAt: number;
}

export interface LiveToken {
  id: string;
  userId: number;
  linkId: string;
  issuedAt: number;
}

/**
 * Activation and reset tokens: 128 random bits in the link, only their hash stored, single use,
 * short-lived, bound to one user. Issuing a new one voids the user's earlier ones of that purpose.
 */
export class AccountTokens {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async issue(userId: number, purpose: TokenPurpose): Promise<IssuedToken> {
    const token = randomToken(16);
    const linkId = crypto.randomUUID();
    const now = this.clock.now();
    await this.db.deleteFrom('account_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
    await this.db
      .insertInto('account_tokens')
      .values({ id: tokenHash(token), user_id: userId, purpose, link_id: linkId, expires_at: now + TOKEN_LIFETIME_MS[purpose], used_at: null, created_at: now })
      .execute();
    return { token, linkId, issuedAt: now };
  }

  /** The unused, unexpired token of this purpose, or undefined. The caller checks whose it is. */
  async findLive(token: string, purpose: TokenPurpose): Promise<LiveToken | undefined> {
    const row = await this.db
      .selectFrom('account_tokens')
      .select(['id', 'user_id', 'link_id', 'created_at'])
      .where('id', '=', tokenHash(token))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return row && { id: row.id, userId: row.user_id, linkId: row.link_id, issuedAt: row.created_at };
  }

  /** Marks the token used; false if another request spent it first. */
  async spend(live: LiveToken): Promise<boolean> {
    const result = await this.db
      .updateTable('account_tokens')
      .set({ used_at: this.clock.now() })
      .where('id', '=', live.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
