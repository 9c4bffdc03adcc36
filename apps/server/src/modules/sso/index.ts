import { everyOnOneInstance, type Foundation } from '../../foundation.js';
import type { SessionService } from '../session/service.js';
import { SsoRepository } from './repository.js';
import { ssoRoutes } from './routes.js';
import { SecretBox } from './secret-box.js';
import { SsoSettingsService } from './settings-service.js';
import { LOGIN_TTL_MS, SsoSignInService } from './sign-in-service.js';

/**
 * Single sign-on through each organisation's OIDC provider (issue 29): its settings, the sign-in
 * flow, and the rule the password sign-in asks (`passwordAllowed`: "SSO only" organisations
 * refuse local passwords except their break-glass administrator).
 */
export function installSso(f: Foundation, needs: { sessions: SessionService }) {
  const repository = new SsoRepository(f.kysely);
  const box = new SecretBox(f.pepper);
  const common = { repository, box, clock: f.clock, operations: f.operations, baseUrl: f.config.baseUrl };
  const settings = new SsoSettingsService(common);
  const signIn = new SsoSignInService({
    ...common,
    secureCookies: f.secureCookies,
    allowHosts: f.config.outboundAllowHosts,
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
  return {
    passwordAllowed: async (user: { id: number; org_id: number }) => {
      const provider = await repository.providerOf(user.org_id);
      return !(
        provider?.enabled === 1 &&
        provider.sso_only === 1 &&
        provider.break_glass_user_id !== user.id
      );
    },
  };
}
