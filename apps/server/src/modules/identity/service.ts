import { oplog } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { ConsoleUserRepository } from '../console-users/repository.js';
import { customerScope } from '../customers/policy.js';
import type { CustomerRepository } from '../customers/repository.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { SessionService } from '../session/service.js';
import type { SecondFactorService } from './second-factor-service.js';
import { browserOf } from './user-agent.js';

const owner = (user: SessionUser) => ({ id: user.id, orgId: user.orgId, userName: user.userName });

/**
 * What a signed-in user does about their own second factor and sessions, and what an
 * administrator does about a console user's: every change is in the operation log.
 */
export class IdentityService {
  constructor(
    private readonly deps: {
      factors: SecondFactorService;
      sessions: SessionService;
      consoleUsers: Pick<ConsoleUserRepository, 'findOwn'>;
      customerAccounts: Pick<CustomerRepository, 'findAccount'>;
      log: OperationLog;
    },
  ) {}

  state(user: SessionUser) {
    return this.deps.factors.state(owner(user));
  }

  start(user: SessionUser) {
    return this.deps.factors.start(owner(user));
  }

  async confirm(user: SessionUser, code: string, ip: string): Promise<string[]> {
    const codes = await this.deps.factors.confirm(owner(user), code);
    await this.deps.log.recordBy(user, ip, 'secondFactor.enrol', { k: 'secondFactorEnrolled' });
    return codes;
  }

  async remove(user: SessionUser, code: string, ip: string): Promise<void> {
    await this.deps.factors.remove(owner(user), code);
    await this.deps.log.recordBy(user, ip, 'secondFactor.remove', { k: 'secondFactorRemoved' });
  }

  async sessions(user: SessionUser, currentId: string) {
    const rows = await this.deps.sessions.listForUser(user.id, currentId);
    return rows.map((r) => ({
      ref: r.ref,
      browser: browserOf(r.userAgent),
      ip: r.ip,
      startedAt: r.startedAt,
      lastSeenAt: r.lastSeenAt,
      method: r.method,
      current: r.current ? 1 : 0,
    })) satisfies Array<{ current: 0 | 1 }>;
  }

  async endSession(user: SessionUser, ref: string, ip: string): Promise<void> {
    const ended = await this.deps.sessions.endByRef(user.id, ref);
    if (!ended) throw new Refusal('session.notFound', 'notFound');
    await this.deps.log.recordBy(user, ip, 'session.end', {
      k: 'sessionEnded',
      v: { browser: browserOf(ended.user_agent), ip: ended.ip },
    });
  }

  async endOtherSessions(user: SessionUser, currentId: string, ip: string): Promise<void> {
    const count = await this.deps.sessions.endAllForUser(user.id, currentId);
    await this.deps.log.recordBy(user, ip, 'session.end', { k: 'sessionsEndedOthers', v: { count } });
  }

  /** A console user of the caller's organisation; another organisation's reads as none. */
  /**
   * A user the caller manages, found as a new password is (`userResetPassword`): a company account
   * its own console users, the platform and distributors the customer accounts in their scope.
   */
  private async managed(caller: SessionUser, userId: number) {
    const target =
      caller.userType === '2'
        ? await this.deps.consoleUsers.findOwn(caller.orgId, userId)
        : await this.deps.customerAccounts.findAccount(customerScope(caller), userId);
    if (!target) throw new Refusal('user.notFound', 'notFound');
    return target;
  }

  async resetUser(caller: SessionUser, userId: number, ip: string): Promise<void> {
    const target = await this.managed(caller, userId);
    await this.deps.factors.reset(target.id);
    await this.deps.sessions.endAllForUser(target.id);
    await this.deps.log.recordBy(caller, ip, 'secondFactor.reset', {
      k: 'secondFactorReset',
      v: { name: target.user_name },
    });
  }

  async endUserSessions(caller: SessionUser, userId: number, ip: string): Promise<void> {
    const target = await this.managed(caller, userId);
    await this.deps.sessions.endAllForUser(target.id);
    await this.deps.log.recordBy(caller, ip, 'session.end', {
      k: 'userSessionsEnded',
      v: { name: target.user_name },
    });
  }

  async policy(caller: SessionUser) {
    return { required: (await this.deps.factors.required(caller.orgId)) ? 1 : 0 } as const;
  }

  async setPolicy(caller: SessionUser, required: boolean, ip: string): Promise<void> {
    await this.deps.factors.setRequired(caller.orgId, required);
    await this.deps.log.recordBy(caller, ip, 'secondFactor.policy', {
      k: 'secondFactorPolicy',
      v: { state: oplog.term(required ? 'required.on' : 'required.off') },
    });
  }
}
