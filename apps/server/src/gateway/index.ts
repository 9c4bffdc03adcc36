import type { FastifyBaseLogger } from 'fastify';
import type { Foundation } from '../foundation.js';
import type { DeviceRepository } from '../modules/devices/repository.js';
import { followPanelAccess } from './access-sync.js';
import { bounded, withinClose } from './bounded.js';
import { deviceAccessEvents, KEEPALIVE_SECONDS, openBroker, type DeviceAccessEvents } from './broker.js';
import { DeviceDirectory } from './device-directory.js';
import { DeviceGateway, STOP_STEP_MS } from './gateway.js';
import { PresenceLeaseRepository } from './presence-lease-repository.js';
import { PresenceLeases } from './presence-leases.js';
import { DeviceStateStore } from './state-store.js';

// The close's bounded steps (app.ts bounds its own with them too).
export { bounded, KEEPALIVE_SECONDS, STOP_STEP_MS, withinClose };
export type { DeviceAccessEvents, DeviceDirectory, DeviceGateway };

/** Panel credentials (cached), needed by the router before the gateway itself. */
export const openDeviceDirectory = (devices: DeviceRepository) => new DeviceDirectory(devices);

/** The device gateway: the broker (embedded or external), presence, reports, access changes. */
export function installGateway(
  f: Foundation,
  needs: { devices: DeviceRepository; directory: DeviceDirectory },
) {
  const { devices, directory } = needs;
  const broker = openBroker(f.config, f.http, directory);
  // Presence is this instance's to hold when its embedded broker holds the connections; behind an
  // external broker every instance reads every panel's presence, and none holds it.
  const owner = f.jobs.owner;
  const gateway = new DeviceGateway(
    broker.transport,
    directory,
    devices,
    f.clock,
    f.log,
    new DeviceStateStore(f.kysely, f.db.dialect, undefined, broker.embedded ? owner : null),
  );
  const presence = new PresenceLeases(
    new PresenceLeaseRepository(f.kysely, f.db.dialect),
    owner,
    f.clock,
    f.config.mqtt.presenceBeatMs,
    f.log,
    () => (broker.embedded ? gateway.onlineKeys() : []),
  );
  const access = deviceAccessEvents(
    gateway,
    broker.external,
    async (key) => {
      const found = await devices.credentialsForPanel(key);
      return found && found.state === 1;
    },
    f.log,
    (deviceKey) => f.events.publish({ kind: 'panelAccess', deviceKey }),
  );
  // Access changes made by any instance reach this one's credential cache and broker connections.
  const unfollowAccess = followPanelAccess(f.events, directory, broker.embedded, f.log);
  f.http.addHook('onClose', async () => unfollowAccess());
  return { broker, gateway, access, presence };
}

/**
 * Stops the device side: command delivery, then the gateway, then the acknowledgements that came
 * while the broker connection closed. Bounded: publishes waiting on a broker that is gone must not
 * keep the server from stopping.
 */
export async function stopDeviceSide(
  log: FastifyBaseLogger,
  commands: { stop(): Promise<void>; settle(): Promise<void> },
  gateway: DeviceGateway,
  presence: PresenceLeases,
): Promise<void> {
  await bounded('command service stop', STOP_STEP_MS, log, () => commands.stop());
  await gateway.stop();
  await bounded('command acknowledgements', STOP_STEP_MS, log, () => commands.settle());
  // After the broker closed and its panels' disconnections were written: what is still held here ends.
  await bounded('presence lease release', STOP_STEP_MS, log, () => presence.stop());
}
