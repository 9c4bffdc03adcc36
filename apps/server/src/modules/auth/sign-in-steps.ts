import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { identity } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { Enrolment, FactorUsed, SecondFactorService } from '../identity/second-factor-service.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { SessionService } from '../session/service.js';
import type { SignInAudit } from './audit.js';
import type { SignInStepRepository } from './step-repository.js';
import type { LoginThrottle } from './throttle.js';

export const STEP_COOKIE = 'pf_signin';
/** How long a sign-in waits for its second step after the first. */
export const STEP_TTL_MS = 5 * 60_000;

/** Who passed the first step. */
export interface FirstFactorUser {
  id: number;
  org_id: number;
  user_name: string;
  user_type: string;
}

type Pending = NonNullable<Awaited<ReturnType<SignInStepRepository['findLive']>>>;

/**
 * The steps of a sign-in after the first (the password; an identity provider later). The first
 * step hands its user to `afterFirstFactor`, which starts the session, or keeps the sign-in
 * waiting (a step cookie, never a session) for a second factor the user has, or for the
 * enrolment the organisation requires. A step that vouches for a second factor itself (an
 * identity provider that did) passes `secondFactor: 'satisfied'` and the session starts.
 */
export class SignInSteps {
  constructor(
    private readonly deps: {
      steps: SignInStepRepository;
      factors: SecondFactorService;
      sessions: SessionService;
      throttle: LoginThrottle;
      audit: SignInAudit;
      log: OperationLog;
      clock: Clock;
      secureCookies: boolean;
    },
  ) {}

  async afterFirstFactor(
    request: FastifyRequest,
    reply: FastifyReply,
    user: FirstFactorUser,
    method: string,
    options: { secondFactor: 'ask' | 'satisfied' } = { secondFactor: 'ask' },
  ): Promise<identity.NextStep> {
    const { factors, sessions, audit } = this.deps;
    if (options.secondFactor === 'ask') {
      if (await factors.enrolled(user.id)) return this.wait(reply, user, method, 'secondFactor');
      if (await factors.required(user.org_id)) return this.wait(reply, user, method, 'enrol');
    }
    await sessions.start(request, reply, user.id, method);
    await audit.succeeded(user, method, request.ip);
    return 'done';
  }

  /** The second step: an authenticator code or a recovery code, throttled as passwords are. */
  async code(request: FastifyRequest, reply: FastifyReply, code: string, log: FastifyBaseLogger) {
    const pending = await this.pending(request);
    return this.throttled(request, pending, log, async () => {
      const used = await this.deps.factors.verify(owner(pending), code);
      if (!used) return null;
      return this.finish(request, reply, pending, used);
    });
  }

  /** An enrolment the organisation requires, during the sign-in. */
  async enrolStart(request: FastifyRequest): Promise<Enrolment> {
    const pending = await this.pending(request);
    return this.deps.factors.start(owner(pending));
  }

  /** Confirms the enrolment with a code; the session starts; answers the recovery codes. */
  async enrolConfirm(request: FastifyRequest, reply: FastifyReply, code: string, log: FastifyBaseLogger) {
    const pending = await this.pending(request);
    return this.throttled(request, pending, log, async () => {
      let codes: string[];
      try {
        codes = await this.deps.factors.confirm(owner(pending), code);
      } catch (error) {
        if (error instanceof Refusal && error.key === 'secondFactor.codeWrong') return null;
        throw error;
      }
      await this.deps.log.record({
        orgId: pending.org_id,
        userId: pending.user_id,
        userName: pending.user_name,
        userType: pending.user_type,
        action: 'secondFactor.enrol',
        content: { k: 'secondFactorEnrolled' },
        ip: request.ip,
      });
      const user = await this.finish(request, reply, pending, 'totp');
      return { user, recoveryCodes: codes };
    });
  }

  purgeExpired() {
    return this.deps.steps.purgeExpired(this.deps.clock.now());
  }

  private async wait(
    reply: FastifyReply,
    user: FirstFactorUser,
    method: string,
    next: 'secondFactor' | 'enrol',
  ): Promise<identity.NextStep> {
    const token = randomToken();
    await this.deps.steps.insert({
      id: tokenHash(token),
      user_id: user.id,
      method,
      expires_at: this.deps.clock.now() + STEP_TTL_MS,
    });
    reply.setCookie(STEP_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: this.deps.secureCookies,
      maxAge: STEP_TTL_MS / 1000,
    });
    return next;
  }

  private async pending(request: FastifyRequest): Promise<Pending> {
    const token = request.cookies[STEP_COOKIE];
    const row = token ? await this.deps.steps.findLive(tokenHash(token), this.deps.clock.now()) : undefined;
    if (!row || row.enabled !== 1) throw new Refusal('secondFactor.stepExpired');
    return row;
  }

  /** Runs a code check under the sign-in throttle: a wrong code counts as a wrong password does. */
  private async throttled<T>(
    request: FastifyRequest,
    pending: Pending,
    log: FastifyBaseLogger,
    check: () => Promise<T | null>,
  ): Promise<T> {
    const { throttle, audit } = this.deps;
    const method = `${pending.method}+totp`;
    const reservation = await throttle.reserve(pending.user_name, request.ip);
    if (!reservation.allowed) {
      await audit.refused(pending.user_name, account(pending), method, 'throttled', request.ip);
      throw new Refusal('login.throttled', 'tooMany', { minutes: Math.ceil(reservation.waitMs / 60_000) });
    }
    let outcome: 'failure' | 'refused' | 'success' = 'refused';
    try {
      const result = await check();
      if (result === null) {
        outcome = 'failure';
        log.warn({ userName: pending.user_name, ip: request.ip }, 'second step refused');
        await audit.refused(pending.user_name, account(pending), method, 'wrongCode', request.ip);
        throw new Refusal('secondFactor.codeWrong');
      }
      outcome = 'success';
      return result;
    } finally {
      if (outcome === 'success') await throttle.succeeded(reservation.attempt);
      else if (outcome === 'refused') await throttle.notAFailure(reservation.attempt);
    }
  }

  private async finish(request: FastifyRequest, reply: FastifyReply, pending: Pending, used: FactorUsed) {
    if (!(await this.deps.steps.take(pending.id))) throw new Refusal('secondFactor.stepExpired');
    reply.clearCookie(STEP_COOKIE, { path: '/' });
    const method = `${pending.method}+${used}`;
    await this.deps.sessions.start(request, reply, pending.user_id, method);
    await this.deps.audit.succeeded(account(pending), method, request.ip);
    return pending;
  }
}

const owner = (p: Pending) => ({ id: p.user_id, orgId: p.org_id, userName: p.user_name });
const account = (p: Pending) => ({
  id: p.user_id,
  org_id: p.org_id,
  user_name: p.user_name,
  user_type: p.user_type,
});
