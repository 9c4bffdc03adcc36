import type { Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import { Refusal } from '../../refusal.js';
import type { PasswordHasher } from '../../security/passwords.js';
import type { AccountTokens } from '../account-tokens/service.js';
import type { Mailer } from '../mail/mailer.js';
import { activationMail } from '../mail/templates.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import type { UserRepository } from '../users/repository.js';
import type { RegistrationRepository } from './repository.js';

export interface RegistrationInput {
  companyName: string;
  saleName: number;
  license: string;
  userName: string;
  phone: string;
  email: string;
  userPass: string;
}

export const DEFAULT_CUSTOMER_QUOTA = 10;

/** Self-registration with a type-0 license, and activation by the mailed link (spec 1 sections 4, 5). */
export class RegistrationService {
  constructor(
    private readonly deps: {
      repository: RegistrationRepository;
      organisations: OrganisationRepository;
      users: UserRepository;
      tokens: AccountTokens;
      hasher: PasswordHasher;
      mailer: Mailer;
      log: OperationLog;
      clock: Clock;
      baseUrl: string;
    },
  ) {}

  /** Where activation mail goes (an SMTP server or the outbox folder), as the replies say. */
  get mailDelivery() {
    return this.deps.mailer.delivery;
  }

  salespeople() {
    return this.deps.repository.salespeopleOnTheJob();
  }

  async register(input: RegistrationInput, language: Language, ip: string): Promise<void> {
    const { repository, organisations, hasher, clock } = this.deps;
    const salesperson = await repository.findSalesperson(input.saleName);
    if (!salesperson || salesperson.job_state !== 1) throw new Refusal('register.salespersonUnknown');
    const license = await repository.findLicense(input.license);
    if (!license) throw new Refusal('register.licenseInvalid');
    if (license.type !== 0) throw new Refusal('register.licenseWrongType');
    if (license.state === 0) throw new Refusal('register.licenseUsed');
    if (license.state !== 1) throw new Refusal('register.licenseInvalid');
    const now = clock.now();
    if (now < license.valid_begin || now > license.valid_end) throw new Refusal('register.licenseExpired');
    if (await repository.userNameTaken(input.userName)) throw new Refusal('register.userNameTaken');
    const platform = await organisations.findPlatform();
    if (!platform) throw new Error('the platform organisation is missing');
    const passwordHash = await hasher.hash(input.userPass);

    let created: { userId: number; orgId: number } | undefined;
    try {
      created = await repository.registerCustomer({
        companyName: input.companyName,
        userQuota: DEFAULT_CUSTOMER_QUOTA,
        salespersonId: salesperson.id,
        distributorName: salesperson.company_name,
        licenseId: license.id,
        platformId: platform.id,
        user: {
          user_name: input.userName,
          password_hash: passwordHash,
          user_type: '2',
          activated: 0,
          enabled: 1,
          phone: input.phone,
          email: input.email,
          program_role: 0,
        },
        now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Refusal('register.userNameTaken');
      throw error;
    }
    if (!created) throw new Refusal('register.licenseUsed');
    const { userId, orgId } = created;
    await this.deps.log.record({
      orgId,
      userId,
      userName: input.userName,
      userType: '2',
      action: 'register',
      content: { k: 'register', v: { company: input.companyName, license: license.license_key } },
      ip,
    });
    await this.sendActivation(userId, input.userName, input.email, language);
  }

  async sendActivation(userId: number, userName: string, email: string, language: Language): Promise<void> {
    const { token, issuedAt } = await this.deps.tokens.issue(userId, 'activation');
    const query = new URLSearchParams({ userName, time: String(issuedAt), token });
    const link = `${this.deps.baseUrl}/activePage?${query.toString()}`;
    await this.deps.mailer.send(activationMail(language, email, userName, link));
  }

  /** Sends the link again to a signed-in user who has not activated. */
  async resendActivation(userId: number, language: Language): Promise<string> {
    const user = await this.deps.users.findById(userId);
    if (!user) throw new Refusal('user.notFound', 'notFound');
    if (user.activated === 1) throw new Refusal('activation.notNeeded');
    await this.sendActivation(user.id, user.user_name, user.email, language);
    return user.email;
  }

  async activate(userName: string, time: string, token: string, ip: string): Promise<void> {
    const { users, tokens } = this.deps;
    const user = await users.findByName(userName);
    if (!user) throw new Refusal('activation.invalid');
    if (user.activated === 1) throw new Refusal('activation.used');
    const live = await tokens.findLive(token, 'activation');
    if (!live || live.userId !== user.id || String(live.issuedAt) !== time)
      throw new Refusal('activation.invalid');
    if (!(await tokens.spend(live))) throw new Refusal('activation.invalid');
    await users.markActivated(user.id);
    await this.deps.log.record({
      orgId: user.org_id,
      userId: user.id,
      userName: user.user_name,
      userType: user.user_type,
      action: 'activate',
      content: { k: 'accountActivated' },
      ip,
    });
  }
}
