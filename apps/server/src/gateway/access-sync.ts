import type { EventBus } from '../events/bus.js';
import type { DeviceDirectory } from './device-directory.js';
import type { EmbeddedBroker } from './embedded-broker.js';
import type { GatewayLog } from './transport.js';

/**
 * Keeps this instance's view of panel access in step with the changes any instance makes
 * (issue 23): a `panelAccess` message, this instance's own or another's, drops the panel's cached
 * credentials and checks its connection to the embedded broker here again; `eventsMissed` (the
 * shared bus was cut and is back) drops every cached credential and checks every connection. An
 * external broker with dynamic-security provisioning is told once, by the instance that made the
 * change, and ends the panel's connection itself. Returns the unsubscribe function.
 */
export function followPanelAccess(
  bus: EventBus,
  directory: Pick<DeviceDirectory, 'forget' | 'forgetAll'>,
  embedded: Pick<EmbeddedBroker, 'recheck' | 'recheckAll'> | undefined,
  log: GatewayLog,
): () => void {
  const failed = (deviceKey?: string) => (err: unknown) =>
    log.error({ err, deviceKey }, 'panel connection not checked after an access change');
  return bus.subscribe((message) => {
    if (message.kind === 'panelAccess') {
      directory.forget(message.deviceKey);
      embedded?.recheck(message.deviceKey).catch(failed(message.deviceKey));
    } else if (message.kind === 'eventsMissed') {
      log.warn({}, 'access changes may have been missed: every cached panel credential is read again');
      directory.forgetAll();
      embedded?.recheckAll().catch(failed());
    }
  });
}
