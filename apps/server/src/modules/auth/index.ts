import { everyOnOneInstance, type Foundation } from '../../foundation.js';
import type { CaptchaService } from '../captcha/service.js';
import type { SecondFactorService } from '../identity/second-factor-service.js';
import type { OrganisationRepository } from '../organisations/repository.js';
import type { ServerLicense } from '../server-license/service.js';
import type { SessionService } from '../session/service.js';
import type { UserRepository } from '../users/repository.js';
import { SignInAudit } from './audit.js';
import { authRoutes } from './routes.js';
import { SignInSteps } from './sign-in-steps.js';
import { SignInStepRepository } from './step-repository.js';
import { AuthService, type AuthPolicy } from './service.js';
import { ThrottleRepository } from './throttle-repository.js';
import { LoginThrottle, type ThrottleLimits } from './throttle.js';

export type { ThrottleLimits };

/** Expired sessions and sign-in throttles are deleted this often. */
const PURGE_EVERY_MS = 10 * 60_000;

/** Sign-in and sign-out; expired sessions and throttles purged on one instance. */
export function installAuth(
  f: Foundation,
  needs: {
    captcha: CaptchaService;
    sessions: SessionService;
    users: UserRepository;
    serverLicense: ServerLicense;
    organisations: OrganisationRepository;
    secondFactor: SecondFactorService;
    limits?: ThrottleLimits;
    passwordAllowed?: AuthPolicy['passwordAllowed'];
  },
): void {
  const { config, log } = f;
  const { sessions } = needs;
  const throttle = new LoginThrottle(new ThrottleRepository(f.kysely), f.clock, needs.limits);
  const audit = new SignInAudit({
    log: f.operations,
    users: needs.users,
    organisations: needs.organisations,
  });
  const steps = new SignInSteps({
    steps: new SignInStepRepository(f.kysely),
    factors: needs.secondFactor,
    sessions,
    throttle,
    audit,
    log: f.operations,
    clock: f.clock,
    secureCookies: f.secureCookies,
  });
  const auth = new AuthService({
    users: needs.users,
    hasher: f.hasher,
    captcha: needs.captcha,
    throttle,
    steps,
    audit,
    clock: f.clock,
    policy: {
      captcha: config.captcha,
      specialDeployment: config.roleFlag === 1,
      requireActiveDeployment: () => needs.serverLicense.requireActive(),
      passwordAllowed: needs.passwordAllowed,
    },
  });
  if (!config.captcha)
    log.warn('CAPTCHA=off: sign-in does not check a captcha; use this only for automated clients');
  authRoutes(f.router, { auth, steps, sessions, users: needs.users });
  everyOnOneInstance(
    f,
    'session-purge',
    PURGE_EVERY_MS,
    async () => {
      await sessions.purgeExpired().catch((err: unknown) => log.error({ err }, 'session purge failed'));
      await throttle
        .purgeExpired()
        .catch((err: unknown) => log.error({ err }, 'sign-in throttle purge failed'));
      await steps.purgeExpired().catch((err: unknown) => log.error({ err }, 'sign-in step purge failed'));
    },
    'session purge lease not taken',
  );
}
