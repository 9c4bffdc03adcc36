import type { Foundation } from '../../foundation.js';
import { SecretSealer } from '../../security/sealed.js';
import { ConsoleUserRepository } from '../console-users/repository.js';
import { CustomerRepository } from '../customers/repository.js';
import type { SessionService } from '../session/service.js';
import { identityRoutes } from './routes.js';
import { SecondFactorRepository } from './second-factor-repository.js';
import { recoveryCodeHasher } from './recovery-codes.js';
import { SecondFactorService } from './second-factor-service.js';
import { IdentityService } from './service.js';

export type { SecondFactorService };

/**
 * The second factor (TOTP and recovery codes), the sessions a user sees and ends, and what
 * administrators do about a user's (issue 29). Sign-in's second step (modules/auth) uses the
 * `SecondFactorService` this returns.
 */
export function installIdentity(f: Foundation, needs: { sessions: SessionService }): SecondFactorService {
  const factors = new SecondFactorService({
    repository: new SecondFactorRepository(f.kysely),
    sealer: new SecretSealer(f.pepper, 'totp secrets'),
    codeHash: recoveryCodeHasher(f.pepper),
    clock: f.clock,
    issuer: f.config.title || 'PanelFleet',
  });
  const service = new IdentityService({
    factors,
    sessions: needs.sessions,
    consoleUsers: new ConsoleUserRepository(f.kysely, f.db.dialect),
    customerAccounts: new CustomerRepository(f.kysely),
    log: f.operations,
  });
  identityRoutes(f.router, service);
  return factors;
}
