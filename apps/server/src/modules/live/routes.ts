import { live } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import { SessionExpiredError } from '../../http/app-error.js';
import type { FleetScopes } from '../fleet-scope/service.js';
import type { SessionState } from '../session/service.js';
import type { LiveHub } from './hub.js';

export function liveRoutes(
  router: Router,
  deps: {
    hub: LiveHub;
    scopes: FleetScopes;
    sessions: { inspect(id: string): Promise<SessionState | undefined> };
  },
) {
  router.add(live.events, async ({ session, reply }) => {
    const [scope, state] = await Promise.all([
      deps.scopes.of(session.user),
      deps.sessions.inspect(session.id),
    ]);
    // The router has just authenticated it; gone only if it ended in between.
    if (!state) throw new SessionExpiredError('session ended');
    reply.hijack();
    deps.hub.open(
      reply.raw,
      { id: session.id, userId: session.user.id, endsAt: state.endsAt },
      scope.kind === 'platform' ? 'all' : new Set(scope.companies.map((c) => c.id)),
    );
    return undefined;
  });
}
