import type { Base } from '../../foundation.js';
import { AccountTokenRepository } from './repository.js';
import { AccountTokens } from './service.js';

export type { AccountTokens };

/** Activation and password-reset tokens. */
export const openAccountTokens = (f: Base) =>
  new AccountTokens(new AccountTokenRepository(f.kysely), f.clock);
