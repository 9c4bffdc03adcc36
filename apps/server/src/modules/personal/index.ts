import type { Foundation } from '../../foundation.js';
import type { UserRepository } from '../users/repository.js';
import { personalRoutes } from './routes.js';
import { PersonalService } from './service.js';

export function installPersonal(f: Foundation, needs: { users: UserRepository }): void {
  personalRoutes(f.router, new PersonalService({ users: needs.users, log: f.operations }));
}
