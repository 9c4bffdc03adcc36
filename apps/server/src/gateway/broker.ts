import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { Refusal } from '../refusal.js';
import type { DeviceDirectory } from './device-directory.js';
import { EmbeddedBroker } from './embedded-broker.js';
import { ExternalBroker } from './external-broker.js';
import type { DeviceGateway } from './gateway.js';
import { BrokerUnavailable, type DeviceTransport, type GatewayLog } from './transport.js';

export const KEEPALIVE_SECONDS = 30;

export interface DeviceBroker {
  transport: DeviceTransport;
  /** The embedded Aedes broker, when MQTT_URL names no external one. */
  embedded?: EmbeddedBroker;
  /** The client of an external broker (MQTT_URL). */
  external?: ExternalBroker;
  /** The broker addresses an enrolling panel is given: never with the server's own login. */
  mqttUrls: string[];
}

/** The embedded broker (TCP port, WebSocket on the HTTP server) or the client of an external one. */
export function openBroker(config: Config, http: FastifyInstance, directory: DeviceDirectory): DeviceBroker {
  const host = new URL(config.baseUrl);
  if (config.mqtt.url) {
    const external = new ExternalBroker(config.mqtt.url, http.log, config.mqtt.provision);
    return {
      transport: external,
      external,
      mqttUrls: [config.mqtt.publicUrl ?? withoutLogin(config.mqtt.url)],
    };
  }
  const embedded = new EmbeddedBroker({
    tcpPort: config.mqtt.port,
    host: config.host,
    webSocket: config.mqtt.webSocket ? { server: http.server, path: '/mqtt' } : null,
    directory,
    log: http.log,
  });
  return {
    transport: embedded,
    embedded,
    mqttUrls: [
      ...(config.mqtt.port !== null ? [`mqtt://${host.hostname}:${config.mqtt.port}`] : []),
      ...(config.mqtt.webSocket ? [`${host.protocol === 'https:' ? 'wss' : 'ws'}://${host.host}/mqtt`] : []),
    ],
  };
}

/** The broker address without the user name and password it may carry: those are the server's own login. */
export function withoutLogin(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/**
 * The seam between the device modules and the gateway: the modules are handed these functions by
 * the composition root (no import of the gateway there); the gateway disconnects the panel at
 * once, every instance hears of the change through the event bus (`announce`, followed by
 * access-sync.ts), and an external broker with provisioning learns it.
 */
export interface DeviceAccessEvents {
  /**
   * Enrolled or re-enrolled with a new password (before the reply): the old connection ends.
   * Refuses as `unavailable` when the external broker cannot take the password now.
   */
  credentialsChanged(deviceKey: string, password: string): Promise<void>;
  /** Enabled or disabled in the console: a connection ends either way (a disabled panel may not keep one). */
  stateChanged(deviceKey: string): void;
  /** The device row was deleted. */
  removed(deviceKey: string): void;
}

export function deviceAccessEvents(
  gateway: Pick<DeviceGateway, 'revoke'>,
  external: ExternalBroker | undefined,
  /** Whether the panel is enabled now (read again after a change). */
  isEnabled: (deviceKey: string) => Promise<boolean | undefined>,
  log: GatewayLog,
  /** Tells every instance (this one included) that the panel's access changed. */
  announce: (deviceKey: string) => void,
): DeviceAccessEvents {
  const changed = (key: string) => {
    gateway.revoke(key);
    announce(key);
  };
  return {
    async credentialsChanged(key, password) {
      changed(key);
      try {
        await external?.credentialsChanged(key, password);
      } catch (err) {
        if (!(err instanceof BrokerUnavailable)) throw err;
        // The panel is told to try again (503), as when the database is away; its next
        // enrollment is a re-enrollment and provisions it.
        log.warn({ err, deviceKey: key }, 'panel credentials not provisioned: broker unavailable');
        throw new Refusal('common.serviceUnavailable', 'unavailable');
      }
    },
    stateChanged(key) {
      changed(key);
      if (!external) return;
      isEnabled(key)
        .then((enabled) => (enabled === undefined ? undefined : external.enabledChanged(key, enabled)))
        .catch((err: unknown) =>
          log.error({ err, deviceKey: key }, 'device state not synced to the external broker'),
        );
    },
    removed(key) {
      changed(key);
      external
        ?.removed(key)
        .catch((err: unknown) =>
          log.error({ err, deviceKey: key }, 'device removal not synced to the external broker'),
        );
    },
  };
}
