import type { Foundation } from '../../foundation.js';
import type { PasswordService } from '../password/service.js';
import type { SessionService } from '../session/service.js';
import { CustomerRepository } from './repository.js';
import { customerRoutes } from './routes.js';
import { CustomerService } from './service.js';

export type { CustomerService };

export function installCustomers(
  f: Foundation,
  needs: { sessions: SessionService; passwords: PasswordService },
): CustomerService {
  const customers = new CustomerService({
    repository: new CustomerRepository(f.kysely),
    ...needs,
    log: f.operations,
    clock: f.clock,
  });
  customerRoutes(f.router, customers);
  return customers;
}
