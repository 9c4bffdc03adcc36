import { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { EnrollmentRepository } from './enrollment-repository.js';

export interface EnrollmentSettings {
  mqttUrls: string[];
  keepaliveSeconds: number;
  /** The firmware signing public key (raw Ed25519, base64) panels verify OTA manifests with. */
  firmwareKey?: string;
}

/**
 * A panel enrolls (device side, no session): its serial number and its company's enrollment
 * secret give it its own password. The only console-free path into the device rows, so it uses
 * the repository's device-side (…ForPanel) method.
 */
export class EnrollmentService {
  constructor(
    private readonly secrets: Pick<EnrollmentRepository, 'enrollForPanel'>,
    private readonly clock: Clock,
    private readonly settings: EnrollmentSettings,
    /**
     * Called when a panel's credentials change (before the reply), so the gateway forgets cached
     * ones and an external broker learns the new password.
     */
    private readonly onCredentialsChanged: (deviceKey: string, password: string) => void | Promise<void>,
    /**
     * Called when a panel has enrolled into its company, before the reply (what a CSV import said
     * about its serial is applied then). A failure fails the enrollment, which the panel repeats.
     */
    private readonly onEnrolled: (panel: {
      orgId: number;
      id: number;
      deviceKey: string;
    }) => Promise<void> = () => Promise.resolve(),
  ) {}

  async enroll(request: device.EnrollmentRequest): Promise<device.EnrollmentReply> {
    const password = randomToken(32);
    // A serial held by another company is refused exactly like a wrong secret (same status, same
    // message): the answer never tells that a serial exists elsewhere.
    const enrolled = await this.secrets.enrollForPanel(tokenHash(request.enrollmentSecret), {
      deviceKey: request.serial,
      passwordHash: tokenHash(password),
      enrolledAt: this.clock.now(),
      ...(request.model ? { model: request.model } : {}),
      ...(request.machineType ? { machineType: request.machineType } : {}),
    });
    if (!enrolled) throw new Refusal('device.enrollmentRefused', 'forbidden');
    await this.onEnrolled({ orgId: enrolled.org_id, id: enrolled.id, deviceKey: request.serial });
    await this.onCredentialsChanged(request.serial, password);
    return {
      v: device.PROTOCOL_VERSION,
      deviceKey: request.serial,
      clientId: request.serial,
      username: request.serial,
      password,
      mqttUrls: this.settings.mqttUrls,
      topicPrefix: `${device.TOPIC_ROOT}/${request.serial}`,
      keepaliveSeconds: this.settings.keepaliveSeconds,
      ...(this.settings.firmwareKey
        ? { firmwareKey: { algorithm: 'ed25519' as const, publicKey: this.settings.firmwareKey } }
        : {}),
    };
  }
}
