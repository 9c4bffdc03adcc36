import { customerScope, type CustomerScope } from '../customers/policy.js';
import type { SessionUser } from '../../http/router.js';

/**
 * Whose devices a caller's reference counts include: the platform counts every device (and
 * it alone decides the locks), a distributor the devices of its customers, a customer's
 * users their own company's. A count never tells one company about another's fleet; the
 * reach is the same as the customer lists'.
 */
export const referenceScope = (caller: SessionUser): CustomerScope => customerScope(caller);
