import type { Foundation } from '../../foundation.js';
import type { AccountTokens } from '../account-tokens/service.js';
import type { Mailer } from '../mail/mailer.js';
import type { SessionService } from '../session/service.js';
import type { UserRepository } from '../users/repository.js';
import { passwordRoutes } from './routes.js';
import { PasswordService } from './service.js';

export type { PasswordService };

export function installPasswords(
  f: Foundation,
  needs: { users: UserRepository; tokens: AccountTokens; mailer: Mailer; sessions: SessionService },
): PasswordService {
  const passwords = new PasswordService({
    ...needs,
    hasher: f.hasher,
    log: f.operations,
    baseUrl: f.config.baseUrl,
  });
  passwordRoutes(f.router, passwords);
  return passwords;
}
