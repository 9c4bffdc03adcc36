import type { Foundation } from '../../foundation.js';
import type { DeviceGateway } from '../../gateway/gateway.js';
import type { CommandService } from '../commands/service.js';
import type { FleetScopes } from '../fleet-scope/service.js';
import type { SessionService } from '../session/service.js';
import { DEFAULT_HUB_OPTIONS, LiveHub, type LiveHubOptions } from './hub.js';
import { liveRoutes } from './routes.js';

export type { LiveHub, LiveHubOptions };

/** The live console: presence and command results published on the bus, streamed to consoles. */
export function installLive(
  f: Foundation,
  needs: {
    gateway: DeviceGateway;
    commands: CommandService;
    sessions: SessionService;
    scopes: FleetScopes;
    options?: Partial<LiveHubOptions>;
  },
): LiveHub {
  const { events, clock } = f;
  needs.gateway.setPresenceListener({
    changed: (known, online) =>
      events.publish({
        kind: 'live',
        orgId: known.orgId,
        event: { type: 'presence', deviceId: known.id, deviceKey: known.deviceKey, online, at: clock.now() },
        local: true,
      }),
    reset: (orgIds) => {
      for (const orgId of orgIds)
        events.publish({
          kind: 'live',
          orgId,
          event: { type: 'presenceReset', at: clock.now() },
          local: true,
        });
    },
  });
  needs.commands.onSettled((settled) => {
    for (const c of settled)
      events.publish({
        kind: 'live',
        orgId: c.org_id,
        event: {
          type: 'command',
          commandId: c.id,
          deviceId: c.device_id,
          order: c.order_code,
          status: c.status,
          detail: c.detail,
          at: clock.now(),
        },
      });
  });
  const live = new LiveHub(events, needs.sessions, clock, f.log, {
    ...DEFAULT_HUB_OPTIONS,
    ...needs.options,
  });
  liveRoutes(f.router, { hub: live, scopes: needs.scopes, sessions: needs.sessions });
  // Open event streams would keep the server from closing.
  f.http.addHook('preClose', async () => live.stop());
  return live;
}
