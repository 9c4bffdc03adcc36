import type { SessionUser } from '../../http/router.js';

/**
 * Who sees which customers: the platform (type 0) all of them, a distributor's staff (type 1)
 * the customers registered under its organisation, a customer manager (type 3) its own company.
 */
export type CustomerScope =
  { kind: 'all' } | { kind: 'children'; parentId: number } | { kind: 'own'; orgId: number };

export function customerScope(caller: SessionUser): CustomerScope {
  if (caller.userType === '0') return { kind: 'all' };
  if (caller.userType === '1') return { kind: 'children', parentId: caller.orgId };
  return { kind: 'own', orgId: caller.orgId };
}
