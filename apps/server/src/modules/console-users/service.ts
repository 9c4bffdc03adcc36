import { oplog, type accounts, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import { pageOffset } from '../../http/access.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { PasswordHasher } from '../../security/passwords.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { PasswordService } from '../password/service.js';
import { IDLE_TIMEOUT_MS, type SessionService } from '../session/service.js';
import type { UserRepository } from '../users/repository.js';
import type { ConsoleUserRepository } from './repository.js';

type ListParams = { start: number; size: number; userName?: string };
type InsertParams = {
  userName: string;
  password: string;
  phone: string;
  email: string;
  state: 0 | 1;
  remark?: string;
  role: 0 | 1 | 2;
  userType: '3' | '4';
};
type UpdateParams = {
  userId: number;
  state: 0 | 1;
  remark?: string;
  role?: 0 | 1 | 2;
  validBeginTime?: number;
  validEndTime?: number;
};

/** A customer's own console users: list, add within the quota, edit, delete, reset password. */
export class ConsoleUserService {
  constructor(
    private readonly deps: {
      repository: ConsoleUserRepository;
      users: UserRepository;
      hasher: PasswordHasher;
      sessions: SessionService;
      passwords: PasswordService;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  /** Where reset mail goes (an SMTP server or the outbox folder), as the replies say. */
  get mailDelivery() {
    return this.deps.passwords.mailDelivery;
  }

  async list(
    caller: SessionUser,
    params: ListParams,
  ): Promise<{ rows: accounts.ConsoleUser[]; total: number }> {
    const { repository, clock } = this.deps;
    const onlineSince = clock.now() - IDLE_TIMEOUT_MS;
    const [rows, total] = await Promise.all([
      repository.page(
        caller.orgId,
        pageOffset(params.start, params.size),
        params.size,
        onlineSince,
        params.userName,
      ),
      repository.count(caller.orgId, params.userName),
    ]);
    return {
      total,
      rows: rows.map((r) => ({
        userId: r.id,
        userName: r.user_name,
        userType: r.user_type,
        isOnline: r.online ? 1 : 0,
        phone: r.phone,
        email: r.email,
        state: r.enabled === 1 ? 1 : 0,
        role: r.program_role,
        remark: r.remark,
        validBeginTime: r.valid_begin,
        validEndTime: r.valid_end,
      })),
    };
  }

  async insert(caller: SessionUser, params: InsertParams, ip: string): Promise<void> {
    const { repository, users, hasher, clock } = this.deps;
    if (await users.findByName(params.userName)) throw new Refusal('register.userNameTaken');
    // Hashed before the quota's lock is taken: the lock is held for a count and an insert only.
    const passwordHash = await hasher.hash(params.password);
    let outcome;
    try {
      outcome = await repository.insertWithinQuota({
        org_id: caller.orgId,
        user_name: params.userName,
        password_hash: passwordHash,
        user_type: params.userType,
        activated: 1,
        enabled: params.state,
        phone: params.phone,
        email: params.email,
        remark: params.remark ?? '',
        program_role: params.role,
        created_at: clock.now(),
      });
    } catch (error) {
      // The name was taken between the check above and the insert.
      if (isUniqueViolation(error)) throw new Refusal('register.userNameTaken');
      throw error;
    }
    if (!outcome) throw new Refusal('common.forbidden', 'forbidden');
    if (!outcome.inserted) throw new Refusal('user.quotaReached', 'declined', { quota: outcome.quota });
    await this.deps.log.recordBy(caller, ip, 'addUser', {
      k: 'user',
      v: {
        name: params.userName,
        type: oplog.term(`userType.${params.userType}`),
        role: oplog.term(`programRole.${params.role}`),
      },
    });
  }

  /** The target must be a console user of the caller's own organisation; otherwise it does not exist for the caller. */
  private async own(caller: SessionUser, userId: number) {
    const target = await this.deps.repository.findOwn(caller.orgId, userId);
    if (!target) throw new Refusal('user.notFound', 'notFound');
    return target;
  }

  async update(caller: SessionUser, params: UpdateParams, ip: string): Promise<void> {
    const target = await this.own(caller, params.userId);
    await this.deps.repository.update(caller.orgId, target.id, {
      enabled: params.state,
      remark: params.remark ?? '',
      ...(params.role !== undefined ? { program_role: params.role } : {}),
      valid_begin: params.validBeginTime ?? null,
      valid_end: params.validEndTime ?? null,
    });
    if (params.state === 0) await this.deps.sessions.endAllForUser(target.id);
    await this.deps.log.recordBy(caller, ip, 'updateUser', {
      k: 'userState',
      v: {
        name: target.user_name,
        state: oplog.term(params.state === 1 ? 'state.enabled' : 'state.disabled'),
      },
    });
  }

  async delete(caller: SessionUser, userId: number, ip: string): Promise<void> {
    const target = await this.own(caller, userId);
    await this.deps.repository.delete(caller.orgId, target.id);
    await this.deps.log.recordBy(caller, ip, 'deleteUser', { k: 'name', v: { name: target.user_name } });
  }

  async resetPassword(caller: SessionUser, userId: number, language: Language, ip: string): Promise<string> {
    const target = await this.own(caller, userId);
    await this.deps.passwords.mailResetLink(target, language);
    await this.deps.sessions.endAllForUser(target.id);
    await this.deps.log.recordBy(caller, ip, 'resetPassword', {
      k: 'resetLink',
      v: { name: target.user_name },
    });
    return target.email;
  }
}
