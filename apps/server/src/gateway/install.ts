import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Router } from '../http/router.js';
import path from 'node:path';
import { commandRoutes } from '../modules/commands/routes.js';
import { CommandRepository } from '../modules/commands/repository.js';
import { CommandService, DEFAULT_TIMINGS, type CommandTimings } from '../modules/commands/service.js';
import { EnrollmentRepository } from '../modules/devices/enrollment-repository.js';
import { DeviceRepository } from '../modules/devices/repository.js';
import { installDeviceList } from '../modules/devices/install.js';
import { DeviceService } from '../modules/devices/service.js';
import { downloadRoutes } from '../modules/downloads/routes.js';
import { DownloadService } from '../modules/downloads/service.js';
import { UrlSigner } from '../modules/downloads/signing.js';
import { loadPepper } from '../security/pepper.js';
import { LabelRepository } from '../modules/labels/repository.js';
import { installDeviceDetail } from '../modules/device-detail/install.js';
import { DeviceDirectory } from './device-directory.js';
import { DeviceStateStore } from './state-store.js';
import { EmbeddedBroker } from './embedded-broker.js';
import { ExternalBroker } from './external-broker.js';
import { DeviceGateway } from './gateway.js';
import type { DeviceTransport } from './transport.js';

export interface DeviceStack {
  gateway: DeviceGateway;
  commands: CommandService;
  /** Files panels download (OTA, APK) under DATA_DIR/files, as signed device-bound URLs. */
  downloads: DownloadService;
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
  const external = embedded ? undefined : new ExternalBroker(config.mqtt.url!, http.log, config.mqtt.provision);
  const transport: DeviceTransport = embedded ?? external!;
  const gateway = new DeviceGateway(transport, directory, devices, clock, http.log, new DeviceStateStore(db.kysely, db.dialect));
  const downloads = new DownloadService(path.join(config.dataDir, 'files'), UrlSigner.fromPepper(loadPepper(config.passwordPepper, config.dataDir)), config.baseUrl, clock);
  const commandRepository = new CommandRepository(db.kysely, db.dialect);
  const commands = new CommandService(commandRepository, devices, gateway, clock, http.log, { ...DEFAULT_TIMINGS, ...timings }, downloads);
  gateway.setCommandSink(commands);

  const labels = new LabelRepository(db.kysely);
  const host = new URL(config.baseUrl);
  const mqttUrls = config.mqtt.url
    ? [config.mqtt.publicUrl ?? config.mqtt.url]
    : [
        ...(config.mqtt.port !== null ? [`mqtt://${host.hostname}:${config.mqtt.port}`] : []),
        ...(config.mqtt.webSocket ? [`${host.protocol === 'https:' ? 'wss' : 'ws'}://${host.host}/mqtt`] : []),
      ];
  const deviceService = new DeviceService(devices, new EnrollmentRepository(db.kysely), clock, { mqttUrls, keepaliveSeconds: KEEPALIVE_SECONDS }, async (key, password) => {
    directory.forget(key);
    await external?.credentialsChanged(key, password);
  });
  /** A device was edited (enabled or disabled): forget its cached credentials, tell an external broker. */
  const deviceChanged = (key: string) => {
    directory.forget(key);
    if (!external) return;
    devices
      .findCredentials(key)
      .then((found) => (found ? external.enabledChanged(key, found.state === 1) : undefined))
      .catch((err: unknown) => http.log.error({ err, deviceKey: key }, 'device state not synced to the external broker'));
  };
  installDeviceList(router, {
    db, clock, devices: deviceService, repository: devices, isOnline: gateway.isOnline,
    forget: deviceChanged,
    logError: (err, message) => http.log.error({ err }, message),
  });
  commandRoutes(router, { commands, repository: commandRepository, devices, labels });
  installDeviceDetail(router, { db, clock, devices, gateway, commands, commandRecords: commandRepository });
  downloadRoutes(http, downloads, (key, password) => directory.verify(key, password));

  await gateway.start();
  commands.start();
  http.log.info({ transport: gateway.description, mqttPort: embedded?.port }, 'device gateway started');
  return {
    gateway,
    commands,
    downloads,
    mqttPort: embedded?.port,
    async stop() {
      await commands.stop();
      await gateway.stop();
    },
  };
}
