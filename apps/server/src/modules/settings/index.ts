import type { Foundation } from '../../foundation.js';
import type { DeviceGateway } from '../../gateway/gateway.js';
import type { CommandService } from '../commands/service.js';
import type { DeviceRepository } from '../devices/repository.js';
import { MatchingDevices } from '../devices/matching-repository.js';
import { MatchingPushService } from './matching-push.js';
import { SettingsMatchingRepository } from './matching-repository.js';
import { PictureReports } from './panel-reports.js';
import { SettingsRepository } from './repository.js';
import { settingsRoutes } from './routes.js';
import { SettingsService } from './service.js';

/** Saved templates and source settings pushed to panels as SETTINGS commands. */
export function installSettings(
  f: Foundation,
  needs: { devices: DeviceRepository; commands: CommandService; gateway: DeviceGateway },
): void {
  const { clock } = f;
  const repository = new SettingsRepository(f.kysely, f.db.dialect, clock.now);
  const saved = new SettingsService({ repository, devices: needs.devices, commands: needs.commands, clock });
  const pictureReports = new PictureReports({ repository, clock });
  needs.gateway.addSettingsSink((known, report) => pictureReports.record(known.orgId, known.id, report));
  const matching = new MatchingPushService({
    settings: repository,
    pushes: new SettingsMatchingRepository(f.kysely, f.db.dialect, clock.now),
    matching: new MatchingDevices(f.kysely, f.db.dialect),
    commands: needs.commands,
    clock,
  });
  settingsRoutes(f.router, saved, matching);
}
