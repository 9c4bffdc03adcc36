import { certificate as calls, device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { SessionUser } from '../../http/router.js';
import type { CommandService } from '../commands/service.js';
import type { CertificateRecord, CertificateRepository } from './repository.js';
import { checkCertificate, fingerprintOf } from './x509.js';

export interface CertificateDeps {
  repository: CertificateRepository;
  commands: CommandService;
  clock: Clock;
  /** Whether a panel listens for commands now. */
  isReady(deviceKey: string): boolean;
}

export interface Caller {
  user: SessionUser;
  ip: string;
}

/**
 * The platform certificate (docs/ARCHITECTURE.md "Platform certificate"): a distributor (user
 * type 1) uploads the X.509 certificate, with its chain, that its customers' panels trust for the
 * platform's endpoints. It is checked, stored, sent at once to the panels that listen, and to
 * every other panel whose settings report shows another certificate (or none) when it connects.
 */
export class CertificateService {
  constructor(private readonly deps: CertificateDeps) {}

  async query(distributorId: number): Promise<calls.CertificateInfo | null> {
    const row = await this.deps.repository.current(distributorId);
    return row ? this.info(row) : null;
  }

  async update(caller: Caller, name: string, text: string) {
    const { user } = caller;
    const now = this.deps.clock.now();
    const checked = checkCertificate(text, now);
    const row: CertificateRecord = {
      org_id: user.orgId,
      name,
      pem: checked.pem,
      sha256: checked.sha256,
      subject: checked.subject,
      issuer: checked.issuer,
      valid_from: checked.validFrom,
      valid_to: checked.validTo,
      chain_length: checked.chainLength,
      uploaded_by: user.id,
      uploaded_by_name: user.userName,
      uploaded_at: now,
    };
    await this.deps.repository.replace(row, {
      orgId: user.orgId,
      userId: user.id,
      userName: user.userName,
      userType: user.userType,
      action: 'certificate.update',
      content: {
        k: 'certificate',
        v: {
          name,
          subject: checked.subject,
          issuer: checked.issuer,
          validTo: new Date(checked.validTo).toISOString().slice(0, 10),
        },
      },
      ip: caller.ip,
    });
    const listening = (await this.deps.repository.panelsOf(user.orgId)).filter((p) =>
      this.deps.isReady(p.device_key),
    );
    const byOrg = new Map<number, Array<{ id: number; deviceKey: string }>>();
    for (const panel of listening)
      byOrg.set(panel.org_id, [
        ...(byOrg.get(panel.org_id) ?? []),
        { id: panel.id, deviceKey: panel.device_key },
      ]);
    for (const [orgId, targets] of byOrg)
      await this.deps.commands.create(orgId, user.id, targets, 'CERTIFICATE', valueOf(row));
    return { info: await this.info(row), sent: listening.length };
  }

  private async info(row: CertificateRecord): Promise<calls.CertificateInfo> {
    const { total, holding } = await this.deps.repository.holding(row.org_id, row.sha256);
    return {
      certificateName: row.name,
      subject: row.subject,
      issuer: row.issuer,
      validFrom: row.valid_from,
      validTo: row.valid_to,
      fingerprint: fingerprintOf(row.sha256),
      chainLength: row.chain_length,
      uploadTime: row.uploaded_at,
      uploadedBy: row.uploaded_by_name,
      panelCount: total,
      panelsHolding: holding,
    };
  }
}

/** The CERTIFICATE order's value (protocol 5.8). */
export const valueOf = (row: CertificateRecord): device.CertificateValue => ({
  name: row.name,
  pem: row.pem,
  sha256: row.sha256,
});
