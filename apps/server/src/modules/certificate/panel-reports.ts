import type { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { KnownDevice } from '../../gateway/device-directory.js';
import type { CommandService } from '../commands/service.js';
import type { CertificateRepository } from './repository.js';
import { valueOf } from './service.js';

/**
 * The device side of the certificate: a panel's settings report says which certificate it holds.
 * It is recorded, and when it is not its distributor's current one (and none is on its way), the
 * current one is sent.
 */
export class CertificateReports {
  constructor(
    private readonly deps: { repository: CertificateRepository; commands: CommandService; clock: Clock },
  ) {}

  async record(known: KnownDevice, report: device.SettingsReport) {
    const now = this.deps.clock.now();
    await this.deps.repository.recordForPanel(known.orgId, known.id, report.certificateSha256, now);
    const current = await this.deps.repository.currentForPanel(known.orgId);
    if (!current || current.sha256 === report.certificateSha256) return;
    if (await this.deps.repository.pendingForPanel(known.id, current.sha256)) return;
    await this.deps.commands.create(
      known.orgId,
      null,
      [{ id: known.id, deviceKey: known.deviceKey }],
      'CERTIFICATE',
      valueOf(current),
    );
  }
}
