import type { accounts, Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import { pageOffset } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import type { PasswordHasher } from '../../security/passwords.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import type { PasswordService } from '../password/service.js';
import { IDLE_TIMEOUT_MS, type SessionService } from '../session/service.js';
import type { UserRepository } from '../users/repository.js';
import { canManageConsoleUsers, mustBeOwnConsoleUser } from './policy.js';
import type { ConsoleUserRepository } from './repository.js';

type ListParams = { start: number; size: number; userName?: string };
type InsertParams = { userName: string; password: string; phone: string; email: string; state: 0 | 1; remark?: string; role: 0 | 1 | 2; userType: '3' | '4' };
type UpdateParams = { userId: number; state: 0 | 1; remark?: string; role?: 0 | 1 | 2; validBeginTime?: number; validEndTime?: number };

/** A customer's own console users: list, add within the quota, edit, delete, reset password. */
export class ConsoleUserService {
  constructor(
    private readonly deps: {
      repository: ConsoleUserRepository;
      users: UserRepository;
      organisations: OrganisationRepository;
      hasher: PasswordHasher;
      sessions: SessionService;
      passwords: PasswordService;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  async list(caller: SessionUser, params: ListParams): Promise<{ rows: accounts.ConsoleUser[]; total: number }> {
    canManageConsoleUsers(caller);
    const { repository, clock } = this.deps;
    const onlineSince = clock.now() - IDLE_TIMEOUT_MS;
    const [rows, total] = await Promise.all([
      repository.page(caller.orgId, pageOffset(params.start, params.size), params.size, onlineSince, params.userName),
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
    canManageConsoleUsers(caller);
    const { repository, users, organisations, hasher, clock } = this.deps;
    const org = await organisations.findById(caller.orgId);
    if (!org) throw new AppError('common.forbidden', 403);
    if ((await repository.count(caller.orgId)) >= org.user_quota) throw new AppError('user.quotaReached', 200, { quota: org.user_quota });
    if (await users.findByName(params.userName)) throw new AppError('register.userNameTaken');
    try {
      await users.insert({
        org_id: caller.orgId,
        user_name: params.userName,
        password_hash: await hasher.hash(params.password),
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
      if (isUniqueViolation(error)) throw new AppError('register.userNameTaken');
      throw error;
    }
    await this.deps.log.recordBy(caller, ip, 'addUser', `added user ${params.userName} (type ${params.userType}, role ${params.role})`);
  }

  async update(caller: SessionUser, params: UpdateParams, ip: string): Promise<void> {
    canManageConsoleUsers(caller);
    const target = mustBeOwnConsoleUser(caller, await this.deps.users.findById(params.userId));
    await this.deps.repository.update(target.id, {
      enabled: params.state,
      remark: params.remark ?? '',
      ...(params.role !== undefined ? { program_role: params.role } : {}),
      valid_begin: params.validBeginTime ?? null,
      valid_end: params.validEndTime ?? null,
    });
    if (params.state === 0) await this.deps.sessions.endAllForUser(target.id);
    await this.deps.log.recordBy(caller, ip, 'updateUser', `changed user ${target.user_name}: state ${params.state}`);
  }

  async delete(caller: SessionUser, userId: number, ip: string): Promise<void> {
    canManageConsoleUsers(caller);
    const target = mustBeOwnConsoleUser(caller, await this.deps.users.findById(userId));
    await this.deps.repository.delete(target.id);
    await this.deps.log.recordBy(caller, ip, 'deleteUser', `deleted user ${target.user_name}`);
  }

  async resetPassword(caller: SessionUser, userId: number, language: Language, ip: string): Promise<string> {
    canManageConsoleUsers(caller);
    const target = mustBeOwnConsoleUser(caller, await this.deps.users.findById(userId));
    await this.deps.passwords.mailResetLink(target, language);
    await this.deps.sessions.endAllForUser(target.id);
    await this.deps.log.recordBy(caller, ip, 'resetPassword', `sent a reset link to user ${target.user_name}`);
    return target.email;
  }

}
