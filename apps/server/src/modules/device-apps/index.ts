import type { Foundation } from '../../foundation.js';
import type { ApkInstallService } from '../apk/install-service.js';
import type { ApkRepository } from '../apk/repository.js';
import type { CommandRepository } from '../commands/repository.js';
import type { CommandService } from '../commands/service.js';
import type { DeviceRepository } from '../devices/repository.js';
import { DeviceAppsRepository } from './repository.js';
import { deviceAppsRoutes } from './routes.js';
import { DeviceAppsService } from './service.js';

export type { DeviceAppsService };

/** The apps on a device: list, uninstall, upgrade through an APK install task. */
export function installDeviceApps(
  f: Foundation,
  needs: {
    devices: DeviceRepository;
    commands: CommandService;
    commandRecords: CommandRepository;
    isOnline: (deviceKey: string) => boolean;
    apk: { records: ApkRepository; installs: ApkInstallService };
  },
): DeviceAppsService {
  const { records, installs } = needs.apk;
  const apps = new DeviceAppsService({
    devices: needs.devices,
    apps: new DeviceAppsRepository(f.kysely),
    commands: needs.commands,
    commandRecords: needs.commandRecords,
    log: f.operations,
    clock: f.clock,
    isOnline: needs.isOnline,
    upgrades: {
      newest: (orgId, names) => records.newestVersions(orgId, names),
      installing: (orgId, deviceId) => records.installingPackages(orgId, deviceId),
      install: async (caller, ip, deviceId, versionIds) =>
        (
          await installs.createTasks(
            caller,
            ip,
            versionIds.map((versionId) => ({
              versionId,
              deviceIds: [deviceId],
              labelIds: [],
              allowDowngrade: false,
            })),
          )
        ).map((t) => t.taskId),
    },
  });
  deviceAppsRoutes(f.router, apps);
  return apps;
}
