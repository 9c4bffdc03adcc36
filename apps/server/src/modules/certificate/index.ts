import type { Foundation } from '../../foundation.js';
import type { DeviceGateway } from '../../gateway/gateway.js';
import type { CommandService } from '../commands/service.js';
import { CertificateReports } from './panel-reports.js';
import { CertificateRepository } from './repository.js';
import { certificateRoutes } from './routes.js';
import { CertificateService } from './service.js';

/** The certificate a distributor's customers' panels trust, sent as CERTIFICATE commands. */
export function installCertificate(
  f: Foundation,
  needs: { commands: CommandService; gateway: DeviceGateway },
): void {
  const { clock } = f;
  const { commands, gateway } = needs;
  const repository = new CertificateRepository(f.kysely, clock.now);
  const certificate = new CertificateService({ repository, commands, clock, isReady: gateway.isReady });
  const reports = new CertificateReports({ repository, commands, clock });
  gateway.addSettingsSink((known, report) => reports.record(known, report));
  certificateRoutes(f.router, certificate);
}
