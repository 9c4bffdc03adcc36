import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { UserRepository } from '../users/repository.js';

/** Personal center: a user changes only their own e-mail and phone. */
export class PersonalService {
  constructor(private readonly deps: { users: Pick<UserRepository, 'setContact'>; log: OperationLog }) {}

  async update(caller: SessionUser, ip: string, userId: number, contact: { phone: string; email: string }) {
    // Only one's own profile: any other id is answered as an id that does not exist.
    if (userId !== caller.id) throw new Refusal('user.notFound', 'notFound');
    await this.deps.users.setContact(caller.id, contact);
    await this.deps.log.recordBy(caller, ip, 'updatePersonal', { k: 'personalChanged' });
  }
}
