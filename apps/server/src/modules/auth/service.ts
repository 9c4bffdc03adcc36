import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import { AppError } from '../../http/app-error.js';
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

  async signIn(request: FastifyRequest, reply: FastifyReply, input: SignInInput, log: FastifyBaseLogger): Promise<User> {
    const { users, hasher, captcha, throttle, sessions, clock, policy } = this.deps;
    const refuse = async (key: string, reason: string, countsAsFailure: boolean) => {
      if (countsAsFailure) await throttle.recordFailure(input.username, request.ip);
      log.warn({ userName: input.username, ip: request.ip, reason }, 'sign-in refused');
      return new AppError(key);
    };

    await policy.requireActiveDeployment();
    const wait = await throttle.blockedFor(input.username, request.ip);
    if (wait > 0) {
      log.warn({ userName: input.username, ip: request.ip }, 'sign-in throttled');
      throw new AppError('login.throttled', 429, { minutes: Math.ceil(wait / 60_000) });
    }

    if (policy.captcha) {
      try {
        await captcha.check(request, input.tryCode);
      } catch (error) {
        if (error instanceof AppError) throw await refuse(error.key, 'captcha', true);
        throw error;
      }
    }

    const user = await users.findByName(input.username);
    if (!user) {
      await hasher.burn(input.password);
      throw await refuse('login.failed', 'unknown user', true);
    }
    if (!(await hasher.verify(user.password_hash, input.password))) throw await refuse('login.failed', 'wrong password', true);
    if (user.enabled !== 1) throw await refuse('login.disabled', 'disabled', false);
    const now = clock.now();
    if ((user.valid_begin !== null && now < user.valid_begin) || (user.valid_end !== null && now > user.valid_end)) {
      throw await refuse('login.outsideValidity', 'outside validity', false);
    }
    if (policy.specialDeployment && user.user_type !== '1') throw await refuse('login.illegal', 'not type 1', false);

    await throttle.clearAccount(input.username);
    await sessions.start(request, reply, user.id);
    log.info({ userName: user.user_name, ip: request.ip }, 'signed in');
    return user;
  }
}
