import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import type { PasswordHasher } from '../../security/passwords.js';
import type { CaptchaService } from '../captcha/service.js';
import type { SessionService } from '../session/service.js';
import type { User, UserRepository } from '../users/repository.js';
import type { LoginThrottle } from './throttle.js';

export interface SignInInput {
  username: string;
  password: string;
  tryCode: string;
}

export interface AuthPolicy {
  captcha: boolean;
  /** Role flag 1: only type-1 users may sign in to this deployment. */
  specialDeployment: boolean;
  /** A private deployment refuses every sign-in (3004/3005) until its server license is active. */
  requireActiveDeployment: () => Promise<void>;
}

/** The sign-in rules of spec 1 sections 5 and 7, in the order a caller should meet them. */
export class AuthService {
  constructor(
    private readonly deps: {
      users: UserRepository;
      hasher: PasswordHasher;
      captcha: CaptchaService;
      throttle: LoginThrottle;
      sessions: SessionService;
      clock: Clock;
      policy: AuthPolicy;
    },
  ) {}

  async signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    input: SignInInput,
    log: FastifyBaseLogger,
  ): Promise<User> {
    const { users, hasher, captcha, throttle, sessions, clock, policy } = this.deps;
    const refuse = (key: string, reason: string) => {
      log.warn({ userName: input.username, ip: request.ip, reason }, 'sign-in refused');
      return new Refusal(key);
    };

    await policy.requireActiveDeployment();
    // The captcha first: a wrong one costs no hash and counts against no account.
    if (policy.captcha) {
      try {
        await captcha.check(request, input.tryCode);
      } catch (error) {
        if (error instanceof Refusal) throw refuse(error.key, 'captcha');
        throw error;
      }
    }

    // Counted before the slow hash, so parallel guesses cannot pass the limit.
    const reservation = await throttle.reserve(input.username, request.ip);
    if (!reservation.allowed) {
      log.warn({ userName: input.username, ip: request.ip }, 'sign-in throttled');
      throw new Refusal('login.throttled', 'tooMany', { minutes: Math.ceil(reservation.waitMs / 60_000) });
    }
    const attempt = reservation.attempt;
    let outcome: 'failure' | 'refused' | 'success' = 'refused';
    try {
      const user = await users.findByName(input.username);
      if (!user) {
        await hasher.burn(input.password);
        outcome = 'failure';
        throw refuse('login.failed', 'unknown user');
      }
      if (!(await hasher.verify(user.password_hash, input.password))) {
        outcome = 'failure';
        throw refuse('login.failed', 'wrong password');
      }
      if (user.enabled !== 1) throw refuse('login.disabled', 'disabled');
      const now = clock.now();
      if (
        (user.valid_begin !== null && now < user.valid_begin) ||
        (user.valid_end !== null && now > user.valid_end)
      ) {
        throw refuse('login.outsideValidity', 'outside validity');
      }
      if (policy.specialDeployment && user.user_type !== '1') throw refuse('login.illegal', 'not type 1');

      await sessions.start(request, reply, user.id);
      outcome = 'success';
      log.info({ userName: user.user_name, ip: request.ip }, 'signed in');
      return user;
    } finally {
      // A failure keeps its count; anything else (right password, or a fault) gives it back.
      if (outcome === 'success') await throttle.succeeded(attempt);
      else if (outcome === 'refused') await throttle.notAFailure(attempt);
    }
  }
}
