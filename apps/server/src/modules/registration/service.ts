import type { Kysely } from 'kysely';
import type { Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
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
      db: Kysely<Database>;
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

  salespeople() {
    return this.deps.repository.salespeopleOnTheJob();
  }

  async register(input: RegistrationInput, language: Language, ip: string): Promise<void> {
    const { db, repository, organisations, hasher, clock } = this.deps;
    const salesperson = await repository.findSalesperson(input.saleName);
    if (!salesperson || salesperson.job_state !== 1) throw new AppError('register.salespersonUnknown');
    const license = await repository.findLicense(input.license);
    if (!license) throw new AppError('register.licenseInvalid');
    if (license.type !== 0) throw new AppError('register.licenseWrongType');
    if (license.state === 0) throw new AppError('register.licenseUsed');
    if (license.state !== 1) throw new AppError('register.licenseInvalid');
    const now = clock.now();
    if (now < license.valid_begin || now > license.valid_end) throw new AppError('register.licenseExpired');
    if (await repository.userNameTaken(input.userName)) throw new AppError('register.userNameTaken');
    const platform = await organisations.findPlatform();
    if (!platform) throw new Error('the platform organisation is missing');
    const passwordHash = await hasher.hash(input.userPass);

    let userId: number;
    let orgId: number;
    try {
      ({ userId, orgId } = await db.transaction().execute(async (trx) => {
        const parentId = await repository.distributorNamed(trx, salesperson.company_name, platform.id, now);
        const org = await trx
          .insertInto('organisations')
          .values({ parent_id: parentId, kind: 'customer', name: input.companyName, user_quota: DEFAULT_CUSTOMER_QUOTA, created_at: now, salesperson_id: salesperson.id, license_id: license.id })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (!(await repository.useLicense(trx, license.id, org.id))) throw new AppError('register.licenseUsed');
        const user = await trx
          .insertInto('users')
          .values({ org_id: org.id, user_name: input.userName, password_hash: passwordHash, user_type: '2', activated: 0, enabled: 1, phone: input.phone, email: input.email, program_role: 0, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { userId: user.id, orgId: org.id };
      }));
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('register.userNameTaken');
      throw error;
    }
    await this.deps.log.record({ orgId, userId, userName: input.userName, userType: '2', action: 'register', content: `registered ${input.companyName} with license ${license.license_key}`, ip });
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
    if (!user) throw new AppError('user.notFound', 404);
    if (user.activated === 1) throw new AppError('activation.notNeeded');
    await this.sendActivation(user.id, user.user_name, user.email, language);
    return user.email;
  }

  async activate(userName: string, time: string, token: string, ip: string): Promise<void> {
    const { users, tokens } = this.deps;
    const user = await users.findByName(userName);
    if (!user) throw new AppError('activation.invalid');
    if (user.activated === 1) throw new AppError('activation.used');
    const live = await tokens.findLive(token, 'activation');
    if (!live || live.userId !== user.id || String(live.issuedAt) !== time) throw new AppError('activation.invalid');
    if (!(await tokens.spend(live))) throw new AppError('activation.invalid');
    await this.deps.db.updateTable('users').set({ activated: 1 }).where('id', '=', user.id).execute();
    await this.deps.log.record({ orgId: user.org_id, userId: user.id, userName: user.user_name, userType: user.user_type, action: 'activate', content: 'activated the account', ip });
  }
}
