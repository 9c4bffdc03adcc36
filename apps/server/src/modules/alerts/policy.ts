import type { SessionUser } from '../../http/router.js';
import type { FleetScopes } from '../fleet-scope/service.js';
import type { AlertReach } from './repository.js';

/** At most this many rules per organisation. */
export const MAX_RULES = 200;

/**
 * Whose alerts a caller reaches: those of its own organisation's rules, about the companies of
 * its fleet scope (the platform every company, a distributor its customers, a company itself)
 * or about its organisation itself (a distributor's certificate). Derived from the session only.
 */
export async function reachOf(scopes: FleetScopes, user: SessionUser): Promise<AlertReach> {
  const scope = await scopes.of(user);
  return { orgId: user.orgId, companyIds: scope.companies.map((c) => c.id) };
}
