import type { Foundation } from '../../foundation.js';
import type { DeviceGateway } from '../../gateway/gateway.js';
import type { CommandService } from '../commands/service.js';
import type { DeviceRepository } from '../devices/repository.js';
import type { MachineTypeRepository } from '../machine-types/repository.js';
import { MatchingDevices } from '../devices/matching-repository.js';
import { DeviceSettingsRepository } from './repository.js';
import { deviceDetailRoutes } from './routes.js';
import { DeviceDetailService } from './service.js';

export type { DeviceDetailService };

/** A device's detail and settings; the settings panels report are recorded here. */
export function installDeviceDetail(
  f: Foundation,
  needs: {
    devices: DeviceRepository;
    commands: CommandService;
    gateway: DeviceGateway;
    machineTypes: MachineTypeRepository;
  },
): DeviceDetailService {
  const { gateway, machineTypes } = needs;
  const detail = new DeviceDetailService({
    devices: needs.devices,
    settings: new DeviceSettingsRepository(f.kysely),
    commands: needs.commands,
    log: f.operations,
    clock: f.clock,
    isOnline: gateway.isOnline,
    matching: new MatchingDevices(f.kysely, f.db.dialect),
    machineTypeIdOf: async (name) => (await machineTypes.idsByNames([name])).get(name) ?? null,
  });
  gateway.addSettingsSink((known, report) => detail.recordReport(known.orgId, known.id, report));
  deviceDetailRoutes(f.router, detail);
  return detail;
}
