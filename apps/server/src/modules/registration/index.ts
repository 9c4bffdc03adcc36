import type { Foundation } from '../../foundation.js';
import type { AccountTokens } from '../account-tokens/service.js';
import type { Mailer } from '../mail/mailer.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import type { UserRepository } from '../users/repository.js';
import { RegistrationRepository } from './repository.js';
import { registrationRoutes } from './routes.js';
import { RegistrationService } from './service.js';

export function installRegistration(
  f: Foundation,
  needs: {
    organisations: OrganisationRepository;
    users: UserRepository;
    tokens: AccountTokens;
    mailer: Mailer;
  },
): void {
  registrationRoutes(
    f.router,
    new RegistrationService({
      repository: new RegistrationRepository(f.kysely),
      ...needs,
      hasher: f.hasher,
      log: f.operations,
      clock: f.clock,
      baseUrl: f.config.baseUrl,
    }),
  );
}
