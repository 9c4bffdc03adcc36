import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Router } from '../http/router.js';
import type { PasswordHasher } from '../security/passwords.js';
import { AccountTokens } from './account-tokens/service.js';
import { avatarRoutes } from './avatar/routes.js';
import { AvatarService } from './avatar/service.js';
import { consoleUserRoutes } from './console-users/routes.js';
import { ConsoleUserRepository } from './console-users/repository.js';
import { ConsoleUserService } from './console-users/service.js';
import { customerRoutes } from './customers/routes.js';
import { CustomerRepository } from './customers/repository.js';
import { CustomerService } from './customers/service.js';
import { licenseRoutes } from './licenses/routes.js';
import { LicenseService } from './licenses/service.js';
import { outboxMailer, smtpMailer, type Mailer } from './mail/mailer.js';
import { OperationLog } from './operation-log/repository.js';
import type { OrganisationRepository } from './organisations/repository.js';
import { passwordRoutes } from './password/routes.js';
import { PasswordService } from './password/service.js';
import { personalRoutes } from './personal/routes.js';
import { RegistrationRepository } from './registration/repository.js';
import { registrationRoutes } from './registration/routes.js';
import { RegistrationService } from './registration/service.js';
import { salespersonRoutes } from './salespeople/routes.js';
import { SalespersonService } from './salespeople/service.js';
import type { SessionService } from './session/service.js';
import type { UserRepository } from './users/repository.js';

export interface AccountDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  hasher: PasswordHasher;
  users: UserRepository;
  organisations: OrganisationRepository;
  sessions: SessionService;
}

/** The account areas of spec 1: registration, activation, passwords, users, customers, sales, licenses. */
export function installAccounts(router: Router, deps: AccountDeps): { mailer: Mailer } {
  const { config, clock, hasher, users, organisations, sessions } = deps;
  const db = deps.db.kysely;
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl) : outboxMailer(path.join(config.dataDir, 'outbox'), deps.log);
  const log = new OperationLog(db, clock.now);
  const tokens = new AccountTokens(db, clock);
  const passwords = new PasswordService({ users, tokens, hasher, mailer, sessions, log, baseUrl: config.baseUrl });
  const registration = new RegistrationService({
    db, repository: new RegistrationRepository(db), organisations, users, tokens, hasher, mailer, log, clock, baseUrl: config.baseUrl,
  });
  const customers = new CustomerService({ repository: new CustomerRepository(db), sessions, passwords, log, clock });
  const consoleUsers = new ConsoleUserService({ repository: new ConsoleUserRepository(db), users, organisations, hasher, sessions, passwords, log, clock });

  registrationRoutes(router, registration);
  passwordRoutes(router, passwords);
  personalRoutes(router, { db, log });
  avatarRoutes(router, new AvatarService({ db, log, dataDir: config.dataDir }));
  consoleUserRoutes(router, consoleUsers, customers);
  customerRoutes(router, customers);
  salespersonRoutes(router, new SalespersonService({ db, log, clock }));
  licenseRoutes(router, new LicenseService({ db, log, clock }));
  return { mailer };
}
