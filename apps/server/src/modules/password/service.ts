import type { Language } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { PasswordHasher } from '../../security/passwords.js';
import type { AccountTokens } from '../account-tokens/service.js';
import type { Mailer } from '../mail/mailer.js';
import { resetMail } from '../mail/templates.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { SessionService } from '../session/service.js';
import type { User, UserRepository } from '../users/repository.js';

export interface ResetLink {
  email: string;
  uuid: string;
  token: string;
}

/** Forgotten, reset and changed passwords (spec 1 sections 2, 5, 7). */
export class PasswordService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      tokens: AccountTokens;
      hasher: PasswordHasher;
      mailer: Mailer;
      sessions: SessionService;
      log: OperationLog;
      baseUrl: string;
    },
  ) {}

  /** Where reset mail goes (an SMTP server or the outbox folder), as the replies say. */
  get mailDelivery() {
    return this.deps.mailer.delivery;
  }

  /** Mails a reset link to every account with this address; an unknown address is not revealed. */
  async forgot(email: string, language: Language): Promise<void> {
    for (const user of await this.deps.users.findByEmail(email)) await this.mailResetLink(user, language);
  }

  async mailResetLink(user: User, language: Language): Promise<void> {
    const { token, linkId } = await this.deps.tokens.issue(user.id, 'reset');
    const query = new URLSearchParams({ email: user.email, uuid: linkId, token });
    // Built from BASE_URL only: a forged Host header cannot redirect the link.
    const link = `${this.deps.baseUrl}/forgetpassword?${query.toString()}`;
    await this.deps.mailer.send(resetMail(language, user.email, user.user_name, link));
  }

  private async liveLink(link: ResetLink) {
    const live = await this.deps.tokens.findLive(link.token, 'reset');
    if (!live || live.linkId !== link.uuid) throw new Refusal('forgetPsw.invalidLink');
    const user = await this.deps.users.findById(live.userId);
    if (!user || user.email.toLowerCase() !== link.email.toLowerCase())
      throw new Refusal('forgetPsw.invalidLink');
    return { live, user };
  }

  async verify(link: ResetLink): Promise<void> {
    await this.liveLink(link);
  }

  /** Sets the new password, spends the link and ends every session of the user. */
  async reset(link: ResetLink, md5Password: string, ip: string): Promise<void> {
    const { live, user } = await this.liveLink(link);
    if (!(await this.deps.tokens.spend(live))) throw new Refusal('forgetPsw.invalidLink');
    await this.deps.users.setPassword(user.id, await this.deps.hasher.hash(md5Password));
    await this.deps.sessions.endAllForUser(user.id);
    await this.deps.log.record({
      orgId: user.org_id,
      userId: user.id,
      userName: user.user_name,
      userType: user.user_type,
      action: 'resetPassword',
      content: { k: 'passwordResetByLink' },
      ip,
    });
  }

  /** The signed-in user changes the password; the user's other sessions end. */
  async change(userId: number, sessionId: string, oldMd5: string, newMd5: string, ip: string): Promise<void> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw new Refusal('user.notFound', 'notFound');
    if (!(await this.deps.hasher.verify(user.password_hash, oldMd5))) throw new Refusal('modifyPsw.wrongOld');
    await this.deps.users.setPassword(user.id, await this.deps.hasher.hash(newMd5));
    await this.deps.sessions.endAllForUser(user.id, sessionId);
    await this.deps.log.record({
      orgId: user.org_id,
      userId: user.id,
      userName: user.user_name,
      userType: user.user_type,
      action: 'changePassword',
      content: { k: 'passwordChanged' },
      ip,
    });
  }
}
