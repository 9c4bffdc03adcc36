import { requireActivated, requireType } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import type { User } from '../users/repository.js';

/** A customer account (type 2, activated) manages its own company's console users (types 3, 4). */
export function canManageConsoleUsers(caller: SessionUser): void {
  requireType(caller, '2');
  requireActivated(caller);
}

/** The target must be a console user of the caller's own organisation; otherwise it does not exist for the caller. */
export function mustBeOwnConsoleUser(caller: SessionUser, target: User | undefined): User {
  if (!target || target.org_id !== caller.orgId || (target.user_type !== '3' && target.user_type !== '4')) {
    throw new AppError('user.notFound', 404);
  }
  return target;
}
