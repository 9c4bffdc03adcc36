import type { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { SettingsRepository } from './repository.js';

/** The device side of saved settings: a panel's complete settings report gives its system and pictures. */
export class PictureReports {
  constructor(private readonly deps: { repository: SettingsRepository; clock: Clock }) {}

  record(orgId: number, deviceId: number, report: device.SettingsReport) {
    const reported =
      report.pictureSettings || report.system
        ? { system: report.system ?? null, pictures: JSON.stringify(report.pictureSettings ?? {}) }
        : undefined;
    return this.deps.repository.replacePicturesForPanel(orgId, deviceId, reported, this.deps.clock.now());
  }
}
