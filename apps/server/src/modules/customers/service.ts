import { oplog, type accounts, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { PasswordService } from '../password/service.js';
import { IDLE_TIMEOUT_MS, type SessionService } from '../session/service.js';
import { customerScope } from './policy.js';
import type { CustomerRepository } from './repository.js';

/** Customer accounts as their distributor or the platform sees them (customer manage view). */
export class CustomerService {
  constructor(
    private readonly deps: {
      repository: CustomerRepository;
      sessions: SessionService;
      passwords: PasswordService;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  async list(
    caller: SessionUser,
    params: { start: number; size: number; userName?: string },
  ): Promise<{ rows: accounts.Customer[]; total: number }> {
    const scope = customerScope(caller);
    const onlineSince = this.deps.clock.now() - IDLE_TIMEOUT_MS;
    const [rows, total] = await Promise.all([
      this.deps.repository.page(
        scope,
        pageOffset(params.start, params.size),
        params.size,
        onlineSince,
        params.userName,
      ),
      this.deps.repository.count(scope, params.userName),
    ]);
    return {
      total,
      rows: rows.map((r) => ({
        userId: r.id,
        customerId: r.org_id,
        userName: r.user_name,
        companyName: r.company_name,
        isOnline: r.online ? 1 : 0,
        phone: r.phone,
        email: r.email,
        state: r.enabled === 1 ? 1 : 0,
      })),
    };
  }

  private async account(caller: SessionUser, userId: number) {
    const account = await this.deps.repository.findAccount(customerScope(caller), userId);
    if (!account) throw new Refusal('user.notFound', 'notFound');
    return account;
  }

  async setState(caller: SessionUser, userId: number, state: 0 | 1, ip: string): Promise<void> {
    const account = await this.account(caller, userId);
    await this.deps.repository.setEnabled(customerScope(caller), account.id, state);
    if (state === 0) await this.deps.sessions.endAllForUser(account.id);
    await this.deps.log.recordBy(caller, ip, 'updateCustomer', {
      k: 'userState',
      v: { name: account.user_name, state: oplog.term(state === 1 ? 'state.enabled' : 'state.disabled') },
    });
  }

  async resetPassword(caller: SessionUser, userId: number, language: Language, ip: string): Promise<string> {
    const account = await this.account(caller, userId);
    await this.deps.passwords.mailResetLink(account, language);
    await this.deps.sessions.endAllForUser(account.id);
    await this.deps.log.recordBy(caller, ip, 'resetPassword', {
      k: 'resetLink',
      v: { name: account.user_name },
    });
    return account.email;
  }

  async quota(caller: SessionUser, orgId: number) {
    const org = await this.deps.repository.findOrganisation(customerScope(caller), orgId);
    if (!org) throw new Refusal('user.notFound', 'notFound');
    return { customerUserNumberId: org.id, userNumber: org.user_quota };
  }

  async setQuota(caller: SessionUser, orgId: number, quota: number, ip: string): Promise<void> {
    const org = await this.deps.repository.findOrganisation(customerScope(caller), orgId);
    if (!org) throw new Refusal('user.notFound', 'notFound');
    await this.deps.repository.setQuota(customerScope(caller), org.id, quota);
    await this.deps.log.recordBy(caller, ip, 'updateQuota', {
      k: 'quota',
      v: { company: org.name, quota: oplog.counted('user', quota) },
    });
  }
}
