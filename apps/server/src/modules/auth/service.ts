import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { identity } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import type { PasswordHasher } from '../../security/passwords.js';
import type { CaptchaService } from '../captcha/service.js';
import type { User, UserRepository } from '../users/repository.js';
import type { SignInAudit, SignInReason } from './audit.js';
import type { SignInSteps } from './sign-in-steps.js';
import type { LoginThrottle } from './throttle.js';

export interface SignInInput {
  username: string;
  password: string;
  /** Absent only when the deployment runs without a captcha. */
  tryCode?: string;
}

export interface AuthPolicy {
  captcha: boolean;
  /** Role flag 1: only type-1 users may sign in to this deployment. */
  specialDeployment: boolean;
  /** A private deployment refuses every sign-in (3004/3005) until its server license is active. */
  requireActiveDeployment: () => Promise<void>;
  /** False for a user of an "SSO only" organisation (modules/sso), except its break-glass administrator. */
  passwordAllowed?: (user: User) => Promise<boolean>;
}

/** The sign-in rules of spec 1 sections 5 and 7, in the order a caller should meet them. */
export class AuthService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      hasher: PasswordHasher;
      captcha: CaptchaService;
      throttle: LoginThrottle;
      steps: SignInSteps;
      audit: SignInAudit;
      clock: Clock;
      policy: AuthPolicy;
    },
  ) {}

  async signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    input: SignInInput,
    log: FastifyBaseLogger,
  ): Promise<{ user: User; nextStep: identity.NextStep }> {
    const { users, hasher, captcha, throttle, steps, audit, clock, policy } = this.deps;
    let account: User | null | undefined;
    const refuse = async (key: string, reason: SignInReason) => {
      log.warn({ userName: input.username, ip: request.ip, reason }, 'sign-in refused');
      await audit.refused(input.username, account, 'password', reason, request.ip);
      return new Refusal(key);
    };

    await policy.requireActiveDeployment();
    // The captcha first: a wrong one costs no hash and counts against no account.
    if (policy.captcha) {
      if (input.tryCode === undefined) throw new Refusal('login.verificationNull', 'invalid');
      try {
        await captcha.check(request, input.tryCode);
      } catch (error) {
        if (error instanceof Refusal) throw await refuse(error.key, 'captcha');
        throw error;
      }
    }

    // Counted before the slow hash, so parallel guesses cannot pass the limit.
    const reservation = await throttle.reserve(input.username, request.ip);
    if (!reservation.allowed) {
      log.warn({ userName: input.username, ip: request.ip }, 'sign-in throttled');
      await audit.refused(input.username, undefined, 'password', 'throttled', request.ip);
      throw new Refusal('login.throttled', 'tooMany', { minutes: Math.ceil(reservation.waitMs / 60_000) });
    }
    const attempt = reservation.attempt;
    let outcome: 'failure' | 'refused' | 'success' = 'refused';
    try {
      const user = await users.findByName(input.username);
      account = user ?? null;
      if (!user) {
        await hasher.burn(input.password);
        outcome = 'failure';
        throw await refuse('login.failed', 'unknownUser');
      }
      if (!(await hasher.verify(user.password_hash, input.password))) {
        outcome = 'failure';
        throw await refuse('login.failed', 'wrongPassword');
      }
      if (policy.passwordAllowed && !(await policy.passwordAllowed(user)))
        throw await refuse('login.ssoOnly', 'ssoOnly');
      if (user.enabled !== 1) throw await refuse('login.disabled', 'disabled');
      const now = clock.now();
      if (
        (user.valid_begin !== null && now < user.valid_begin) ||
        (user.valid_end !== null && now > user.valid_end)
      ) {
        throw await refuse('login.outsideValidity', 'outsideValidity');
      }
      if (policy.specialDeployment && user.user_type !== '1')
        throw await refuse('login.illegal', 'deployment');

      // The first step passed: the session starts, or the sign-in waits for its second step.
      const nextStep = await steps.afterFirstFactor(request, reply, user, 'password');
      outcome = 'success';
      log.info({ userName: user.user_name, ip: request.ip, nextStep }, 'password accepted');
      return { user, nextStep };
    } finally {
      // A failure keeps its count; anything else (right password, or a fault) gives it back.
      if (outcome === 'success') await throttle.succeeded(attempt);
      else if (outcome === 'refused') await throttle.notAFailure(attempt);
    }
  }
}
