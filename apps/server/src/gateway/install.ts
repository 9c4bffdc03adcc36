import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Router } from '../http/router.js';
import { commandRoutes } from '../modules/commands/routes.js';
import { CommandRepository } from '../modules/commands/repository.js';
import { CommandService, DEFAULT_TIMINGS, type CommandTimings } from '../modules/commands/service.js';
import { EnrollmentRepository } from '../modules/devices/enrollment-repository.js';
import { DeviceRepository } from '../modules/devices/repository.js';
import { deviceRoutes } from '../modules/devices/routes.js';
import { DeviceService } from '../modules/devices/service.js';
import { LabelRepository } from '../modules/labels/repository.js';
import { labelRoutes } from '../modules/labels/routes.js';
import { DeviceDirectory } from './device-directory.js';
import { EmbeddedBroker } from './embedded-broker.js';
import { ExternalBroker } from './external-broker.js';
import { DeviceGateway } from './gateway.js';
import type { DeviceTransport } from './transport.js';

export interface DeviceStack {
  gateway: DeviceGateway;
  commands: CommandService;
  /** The embedded broker's TCP port (after start), undefined with an external broker. */
  mqttPort: number | undefined;
  stop(): Promise<void>;
}

const KEEPALIVE_SECONDS = 30;

/** Builds the device side (broker, gateway, commands) and registers its HTTP calls. */
export async function installDeviceGateway(
  http: FastifyInstance,
  router: Router,
  db: Db,
  clock: Clock,
  config: Config,
  timings: Partial<CommandTimings> = {},
): Promise<DeviceStack> {
  const devices = new DeviceRepository(db.kysely);
  const directory = new DeviceDirectory(devices);
  const embedded = config.mqtt.url
    ? undefined
    : new EmbeddedBroker({
        tcpPort: config.mqtt.port,
        host: config.host,
        webSocket: config.mqtt.webSocket ? { server: http.server, path: '/mqtt' } : null,
        directory,
        log: http.log,
      });
  const transport: DeviceTransport = embedded ?? new ExternalBroker(config.mqtt.url!, http.log);
  const gateway = new DeviceGateway(transport, directory, devices, clock, http.log);
  const commandRepository = new CommandRepository(db.kysely);
  const commands = new CommandService(commandRepository, devices, gateway, clock, http.log, { ...DEFAULT_TIMINGS, ...timings });
  gateway.setCommandSink(commands);

  const labels = new LabelRepository(db.kysely);
  const host = new URL(config.baseUrl);
  const mqttUrls = config.mqtt.url
    ? [config.mqtt.publicUrl ?? config.mqtt.url]
    : [
        ...(config.mqtt.port !== null ? [`mqtt://${host.hostname}:${config.mqtt.port}`] : []),
        ...(config.mqtt.webSocket ? [`${host.protocol === 'https:' ? 'wss' : 'ws'}://${host.host}/mqtt`] : []),
      ];
  const deviceService = new DeviceService(devices, new EnrollmentRepository(db.kysely), clock, { mqttUrls, keepaliveSeconds: KEEPALIVE_SECONDS }, (key) =>
    directory.forget(key),
  );
  deviceRoutes(router, { devices: deviceService, isOnline: gateway.isOnline });
  labelRoutes(router, { labels, clock });
  commandRoutes(router, { commands, repository: commandRepository, devices, labels });

  await gateway.start();
  commands.start();
  http.log.info({ transport: gateway.description, mqttPort: embedded?.port }, 'device gateway started');
  return {
    gateway,
    commands,
    mqttPort: embedded?.port,
    async stop() {
      await commands.stop();
      await gateway.stop();
    },
  };
}
