import type { Foundation } from '../../foundation.js';
import type { CustomerService } from '../customers/service.js';
import type { PasswordService } from '../password/service.js';
import type { SessionService } from '../session/service.js';
import type { UserRepository } from '../users/repository.js';
import { ConsoleUserRepository } from './repository.js';
import { consoleUserRoutes } from './routes.js';
import { ConsoleUserService } from './service.js';

export function installConsoleUsers(
  f: Foundation,
  needs: {
    users: UserRepository;
    sessions: SessionService;
    passwords: PasswordService;
    customers: CustomerService;
  },
): void {
  const consoleUsers = new ConsoleUserService({
    repository: new ConsoleUserRepository(f.kysely, f.db.dialect),
    users: needs.users,
    hasher: f.hasher,
    sessions: needs.sessions,
    passwords: needs.passwords,
    log: f.operations,
    clock: f.clock,
  });
  consoleUserRoutes(f.router, consoleUsers, needs.customers);
}
