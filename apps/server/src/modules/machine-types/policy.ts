import type { Deployment } from '@panelfleet/contract';
import { requireActivated } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import type { CustomerScope } from '../customers/policy.js';
import { mayOpen } from '../sources/policy.js';

/**
 * Whose devices a caller's reference counts include: the platform counts every device (and
 * it alone decides the locks), a distributor the devices of its customers, a customer's
 * users their own company's. A count never tells one company about another's fleet.
 */
export function referenceScope(caller: SessionUser): CustomerScope {
  if (caller.userType === '0') return { kind: 'all' };
  if (caller.userType === '1') return { kind: 'children', parentId: caller.orgId };
  return { kind: 'own', orgId: caller.orgId };
}

/**
 * The sources of a machine type feed the device detail modal's source switch, so the device
 * operators (types 2 and 4, as for every device call) read them as well as whoever may open
 * machine management.
 */
export function requireSourceSwitchReader(user: SessionUser, deployment: Deployment): void {
  if (mayOpen(user, deployment, 'machineManage')) return;
  if (user.userType !== '2' && user.userType !== '4') throw new AppError('common.forbidden', 403);
  requireActivated(user);
}
