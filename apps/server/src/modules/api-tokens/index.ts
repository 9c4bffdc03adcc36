import type { FastifyRequest } from 'fastify';
import type { Base } from '../../foundation.js';
import type { Router, SessionUser } from '../../http/router.js';
import type { SessionService } from '../session/service.js';
import { ApiTokenRepository } from './repository.js';
import { apiTokenRoutes } from './routes.js';
import { ApiTokenService, bearerOf, isBearer } from './service.js';
import { DEFAULT_API_TOKEN_LIMITS, TokenThrottle, type ApiTokenLimits } from './throttle.js';
import { targetsOf } from './targets.js';

export type { ApiTokenLimits };

/**
 * API tokens (issue 28): the router's authentication (a bearer token acts as its user within its
 * scope, else the console session), the reach of a token restricted to labels, and the personal
 * centre's calls. Installed before the router, which it authenticates for; `routes` registers
 * the calls once the router exists.
 */
export function installApiTokens(
  base: Base,
  needs: { sessions: SessionService; limits?: ApiTokenLimits | undefined },
) {
  const repository = new ApiTokenRepository(base.kysely);
  const service = new ApiTokenService({
    tokens: repository,
    throttle: new TokenThrottle(needs.limits ?? DEFAULT_API_TOKEN_LIMITS),
    clock: base.clock,
    log: base.operations,
  });
  return {
    authenticate: (request: FastifyRequest) => {
      const header = request.headers.authorization;
      return header && isBearer(header)
        ? service.authenticate(request, bearerOf(header))
        : needs.sessions.authenticate(request);
    },
    /** Whether a token restricted to labels reaches every panel and label a call's parameters name. */
    async tokenReach(user: SessionUser, params: unknown): Promise<boolean> {
      const labelIds = user.token?.labelIds ?? [];
      if (!labelIds.length) return true;
      const { devices, labels } = targetsOf(params);
      if (labels.some((id) => !labelIds.includes(id))) return false;
      return (
        devices.length === 0 || (await repository.devicesOutsideLabels(user.orgId, labelIds, devices)) === 0
      );
    },
    /** Revokes every live token of a user (single sign-on's check of the identity provider). */
    revokeAllForUser: (userId: number) => repository.revokeAllForUser(userId, base.clock.now()),
    routes: (router: Router) => apiTokenRoutes(router, service),
  };
}
