import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { FleetScopeRepository } from './repository.js';

/**
 * Whose panels a signed-in user sees on dashboards, maps and the live console: the platform
 * admin every customer company, a distributor's staff (type 1) the companies under its
 * distributor, a company's own users (types 2, 3, 4) their company. Derived from the session,
 * never from the request.
 */
export interface FleetScope {
  kind: 'platform' | 'distributor' | 'company';
  /** The customer companies in reach, by id, with their names. */
  companies: Array<{ id: number; name: string }>;
}

export class FleetScopes {
  constructor(private readonly repository: FleetScopeRepository) {}

  async of(user: SessionUser): Promise<FleetScope> {
    switch (user.userType) {
      case '0':
        return { kind: 'platform', companies: await this.repository.allCustomers() };
      case '1':
        return { kind: 'distributor', companies: await this.repository.customersOfDistributor(user.orgId) };
      default:
        return { kind: 'company', companies: await this.repository.ownCompany(user.orgId) };
    }
  }

  /**
   * The scope narrowed to one of its companies when `customerId` is given. A company outside the
   * scope (another tenant's, or none at all) is refused exactly like an unknown one.
   */
  async narrowed(user: SessionUser, customerId: number | undefined): Promise<FleetScope> {
    const scope = await this.of(user);
    if (customerId === undefined) return scope;
    const company = scope.companies.find((c) => c.id === customerId);
    if (!company) throw new Refusal('common.notFound', 'notFound');
    return { kind: 'company', companies: [company] };
  }
}
