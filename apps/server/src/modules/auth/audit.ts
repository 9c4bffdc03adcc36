import { oplog } from '@panelfleet/contract';
import type { OperationLog } from '../operation-log/repository.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import type { UserRepository } from '../users/repository.js';

/** Why a sign-in was refused, as the operation log words it (`oplog.signInReason.<reason>`). */
export type SignInReason =
  | 'captcha'
  | 'throttled'
  | 'unknownUser'
  | 'wrongPassword'
  | 'disabled'
  | 'outsideValidity'
  | 'deployment'
  | 'wrongCode'
  | 'ssoOnly';

interface Account {
  id: number;
  org_id: number;
  user_name: string;
  user_type: string;
}

/**
 * Every sign-in in the operation log: how (method), and success or why not. A refusal is logged in
 * the account's organisation; one for a user name nobody has, in the platform's.
 */
export class SignInAudit {
  constructor(
    private readonly deps: {
      log: OperationLog;
      users: Pick<UserRepository, 'findByName'>;
      organisations: Pick<OrganisationRepository, 'findPlatform'>;
    },
  ) {}

  async succeeded(user: Account, method: string, ip: string): Promise<void> {
    await this.deps.log.record({
      orgId: user.org_id,
      userId: user.id,
      userName: user.user_name,
      userType: user.user_type,
      action: 'signIn',
      content: { k: 'signIn', v: { method: oplog.term(`signInMethod.${method}`) } },
      ip,
    });
  }

  /** A refusal; the account is looked up by name when the caller has not. */
  async refused(
    userName: string,
    account: Account | undefined | null,
    method: string,
    reason: SignInReason,
    ip: string,
  ): Promise<void> {
    const known = account === null ? undefined : (account ?? (await this.deps.users.findByName(userName)));
    const orgId = known?.org_id ?? (await this.deps.organisations.findPlatform())?.id;
    if (orgId === undefined) return;
    await this.deps.log.record({
      orgId,
      userId: known?.id ?? null,
      userName: known?.user_name ?? userName.slice(0, 64),
      userType: known?.user_type ?? '',
      action: 'signInRefused',
      content: {
        k: 'signInRefused',
        v: {
          name: userName.slice(0, 64),
          method: oplog.term(`signInMethod.${method}`),
          reason: oplog.term(`signInReason.${reason}`),
        },
      },
      ip,
    });
  }
}
