import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { AccountTokenRepository } from './repository.js';

export type TokenPurpose = 'activation' | 'reset';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  activation: 24 * 60 * 60_000,
  reset: 30 * 60_000,
};

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
    private readonly tokens: AccountTokenRepository,
    private readonly clock: Clock,
  ) {}

  async issue(userId: number, purpose: TokenPurpose): Promise<IssuedToken> {
    const token = randomToken(16);
    const linkId = crypto.randomUUID();
    const now = this.clock.now();
    await this.tokens.replace({
      id: tokenHash(token),
      user_id: userId,
      purpose,
      link_id: linkId,
      expires_at: now + TOKEN_LIFETIME_MS[purpose],
      used_at: null,
      created_at: now,
    });
    return { token, linkId, issuedAt: now };
  }

  /** The unused, unexpired token of this purpose, or undefined. The caller checks whose it is. */
  async findLive(token: string, purpose: TokenPurpose): Promise<LiveToken | undefined> {
    const row = await this.tokens.findLive(tokenHash(token), purpose, this.clock.now());
    return row && { id: row.id, userId: row.user_id, linkId: row.link_id, issuedAt: row.created_at };
  }

  /** Marks the token used; false if another request spent it first. */
  spend(live: LiveToken): Promise<boolean> {
    return this.tokens.spend(live.id, this.clock.now());
  }
}
