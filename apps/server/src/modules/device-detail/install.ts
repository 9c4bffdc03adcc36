import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { DeviceGateway } from '../../gateway/gateway.js';
import type { Router } from '../../http/router.js';
import type { CommandRepository } from '../commands/repository.js';
import type { CommandService } from '../commands/service.js';
import { DeviceAppsRepository } from '../device-apps/repository.js';
import { deviceAppsRoutes } from '../device-apps/routes.js';
import { DeviceAppsService } from '../device-apps/service.js';
import type { DeviceRepository } from '../devices/repository.js';
import { MachineTypeRepository } from '../machine-types/repository.js';
import { OperationLog } from '../operation-log/repository.js';
import { DeviceSettingsRepository } from './repository.js';
import { deviceDetailRoutes } from './routes.js';
import { DeviceDetailService } from './service.js';

export interface DeviceDetailWiring {
  db: Db;
  clock: Clock;
  devices: DeviceRepository;
  gateway: DeviceGateway;
  commands: CommandService;
  commandRecords: CommandRepository;
}

/** The detail modal's calls (detail, settings, apps) and the store of the settings panels report. */
export function installDeviceDetail(router: Router, w: DeviceDetailWiring) {
  const log = new OperationLog(w.db.kysely, w.clock.now);
  const machineTypes = new MachineTypeRepository(w.db.kysely);
  const detail = new DeviceDetailService({
    devices: w.devices,
    settings: new DeviceSettingsRepository(w.db.kysely),
    commands: w.commands,
    log,
    clock: w.clock,
    isOnline: w.gateway.isOnline,
    machineTypeIdOf: async (name) => (await machineTypes.idsByNames([name])).get(name) ?? null,
  });
  w.gateway.setSettingsSink((known, report) => detail.recordReport(known.orgId, known.id, report));
  deviceDetailRoutes(router, detail);
  deviceAppsRoutes(
    router,
    new DeviceAppsService({
      devices: w.devices,
      apps: new DeviceAppsRepository(w.db.kysely),
      commands: w.commands,
      commandRecords: w.commandRecords,
      log,
      clock: w.clock,
      isOnline: w.gateway.isOnline,
    }),
  );
}
