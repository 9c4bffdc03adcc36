import { device } from '@panelfleet/contract';
import type { Insertable } from 'kysely';
import type { Clock } from '../../clock.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DevicesTable } from '../../db/schema.js';
import { Refusal } from '../../refusal.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { EnrollmentRepository } from './enrollment-repository.js';
import type { DeviceRepository } from './repository.js';

export interface EnrollmentSettings {
  mqttUrls: string[];
  keepaliveSeconds: number;
  /** The firmware signing public key (raw Ed25519, base64) panels verify OTA manifests with. */
  firmwareKey?: string;
}

/**
 * A panel enrolls (device side, no session): its serial number and its company's enrollment
 * secret give it its own password. The only console-free path into the device rows, so it uses
 * the repositories' device-side (…ForPanel) methods.
 */
export class EnrollmentService {
  constructor(
    private readonly devices: Pick<
      DeviceRepository,
      'credentialsForPanel' | 'insertForPanel' | 'updateSecretForPanel'
    >,
    private readonly secrets: Pick<EnrollmentRepository, 'findByHashForPanel'>,
    private readonly clock: Clock,
    private readonly settings: EnrollmentSettings,
    /**
     * Called when a panel's credentials change (before the reply), so the gateway forgets cached
     * ones and an external broker learns the new password.
     */
    private readonly onCredentialsChanged: (deviceKey: string, password: string) => void | Promise<void>,
  ) {}

  async enroll(request: device.EnrollmentRequest): Promise<device.EnrollmentReply> {
    // Both reads always run, and a serial held by another company is refused exactly like a wrong
    // secret (same status, same message): the answer never tells that a serial exists elsewhere.
    const [company, existing] = await Promise.all([
      this.secrets.findByHashForPanel(tokenHash(request.enrollmentSecret)),
      this.devices.credentialsForPanel(request.serial),
    ]);
    if (!company || (existing && existing.org_id !== company.org_id))
      throw new Refusal('device.enrollmentRefused', 'forbidden');
    const password = randomToken(32);
    const now = this.clock.now();
    const reported = {
      ...(request.model ? { model: request.model } : {}),
      ...(request.machineType ? { machine_type: request.machineType } : {}),
    };
    if (existing) {
      // Re-enrollment (factory reset, new firmware): the old password stops working.
      await this.devices.updateSecretForPanel(existing.id, tokenHash(password), {
        ...reported,
        enrolled_at: now,
      });
    } else {
      await this.insertOrReenroll({
        org_id: company.org_id,
        device_key: request.serial,
        name: request.serial,
        secret_hash: tokenHash(password),
        enrolled_at: now,
        ...reported,
      });
    }
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

  /**
   * Inserts a newly enrolled panel. When another enrollment of the same serial inserted it in the
   * meantime (the unique device key refuses this row), this one counts as the re-enrollment after
   * it, exactly as if the two had arrived one after the other: the password issued last is valid.
   */
  private async insertOrReenroll(
    row: Insertable<DevicesTable> & {
      org_id: number;
      device_key: string;
      secret_hash: string;
      enrolled_at: number;
    },
  ) {
    try {
      await this.devices.insertForPanel(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.devices.credentialsForPanel(row.device_key);
      if (!winner) throw error;
      if (winner.org_id !== row.org_id) throw new Refusal('device.enrollmentRefused', 'forbidden');
      const reported = {
        ...(row.model !== undefined ? { model: row.model } : {}),
        ...(row.machine_type !== undefined ? { machine_type: row.machine_type } : {}),
      };
      await this.devices.updateSecretForPanel(winner.id, row.secret_hash, {
        ...reported,
        enrolled_at: row.enrolled_at,
      });
    }
  }
}
