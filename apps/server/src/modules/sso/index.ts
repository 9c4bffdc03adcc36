import { everyOnOneInstance, type Foundation } from '../../foundation.js';
import { SecretSealer } from '../../security/sealed.js';
import type { SessionService } from '../session/service.js';
import { IdpCheck, type IdpCheckSummary } from './idp-check.js';
import { ProviderClients } from './provider-client.js';
import { SsoRepository } from './repository.js';
import { ssoRoutes } from './routes.js';
import { SsoSettingsService } from './settings-service.js';
import { LOGIN_TTL_MS, SsoSignInService } from './sign-in-service.js';

export type { IdpCheckSummary };

/**
 * Single sign-on through each organisation's OIDC provider (issue 29): its settings, the sign-in
 * flow, the check of the provider (a user it disabled loses sessions and API tokens), and the rule
 * the password sign-in asks (`passwordAllowed`: "SSO only" organisations refuse local passwords
 * except their break-glass administrator; a user the provider ended must sign in through it).
 */
export function installSso(
  f: Foundation,
  needs: { sessions: SessionService; revokeApiTokens: (userId: number) => Promise<number> },
) {
  const repository = new SsoRepository(f.kysely);
  const secretSealer = new SecretSealer(f.pepper, 'sso client secrets');
  const clients = new ProviderClients({ sealer: secretSealer, policy: f.config.outbound });
  const refreshSealer = new SecretSealer(f.pepper, 'sso refresh tokens');
  const common = { repository, clock: f.clock, operations: f.operations, baseUrl: f.config.baseUrl };
  const settings = new SsoSettingsService({ ...common, sealer: secretSealer });
  const signIn = new SsoSignInService({
    ...common,
    clients,
    refreshSealer,
    secureCookies: f.secureCookies,
    startSession: (request, reply, userId) => needs.sessions.start(request, reply, userId, 'oidc'),
  });
  ssoRoutes(f.router, { settings, signIn });
  everyOnOneInstance(
    f,
    'sso-login-purge',
    LOGIN_TTL_MS,
    () => signIn.purge(),
    'sso login purge lease not taken',
  );
  const tickMs = Math.min(f.config.sso.checkEveryMs, 60_000);
  const check = new IdpCheck({
    repository,
    clients,
    refreshSealer,
    clock: f.clock,
    operations: f.operations,
    settings: {
      everyMs: f.config.sso.checkEveryMs,
      sessionMaxMs: f.config.sso.sessionMaxMs,
      uncheckedTokenMs: f.config.sso.uncheckedTokenMs,
    },
    // The lease lasts two ticks; a run makes calls for at most half of one.
    runBudgetMs: tickMs / 2,
    endSessions: (userId) => needs.sessions.endAllForUser(userId),
    endSession: (sessionId) => needs.sessions.endById(sessionId),
    revokeTokens: needs.revokeApiTokens,
    warn: (details, message) => f.log.warn(details, message),
  });
  // Every minute (or more often when the check is): the users due are those not checked for
  // SSO_CHECK_MINUTES, and sessions past SSO_SESSION_MAX_MINUTES end within a minute of it.
  everyOnOneInstance(
    f,
    'sso-idp-check',
    tickMs,
    async () => {
      const summary = await check.run();
      if (summary.ended || summary.failed)
        f.log.info({ summary }, 'identity provider check: users ended or not checked');
    },
    'identity provider check failed',
  );
  return {
    passwordAllowed: async (user: { id: number; org_id: number }) => {
      const provider = await repository.providerOf(user.org_id);
      const ssoOnly =
        provider?.enabled === 1 && provider.sso_only === 1 && provider.break_glass_user_id !== user.id;
      return !ssoOnly && !(await repository.needsSignIn(user.id));
    },
    /** Runs the check of the providers now (tests; the job runs it every SSO_CHECK_MINUTES). */
    checkProviders: () => check.run(),
  };
}
