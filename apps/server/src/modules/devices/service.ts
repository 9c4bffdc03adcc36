import { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { AppError } from '../../http/app-error.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { DeviceRepository, DeviceRecord } from './repository.js';
import type { EnrollmentRepository } from './enrollment-repository.js';

export interface EnrollmentSettings {
  mqttUrls: string[];
  keepaliveSeconds: number;
}

/** Enrollment and the company enrollment secret. */
export class DeviceService {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly secrets: EnrollmentRepository,
    private readonly clock: Clock,
    private readonly settings: EnrollmentSettings,
    /**
     * Called when a panel's credentials change (before the reply), so the gateway forgets cached
     * ones and an external broker learns the new password.
     */
    private readonly onCredentialsChanged: (deviceKey: string, password: string) => void | Promise<void>,
  ) {}

  async enrollmentSecret(orgId: number) {
    const existing = await this.secrets.findByOrg(orgId);
    if (existing) return { enrollmentSecret: existing.secret, rotatedAt: existing.rotated_at };
    return this.rotateEnrollmentSecret(orgId);
  }

  async rotateEnrollmentSecret(orgId: number) {
    const secret = randomToken(24);
    const rotatedAt = this.clock.now();
    await this.secrets.upsert({ org_id: orgId, secret, secret_hash: tokenHash(secret), rotated_at: rotatedAt });
    return { enrollmentSecret: secret, rotatedAt };
  }

  async enroll(request: device.EnrollmentRequest): Promise<device.EnrollmentReply> {
    const company = await this.secrets.findByHash(tokenHash(request.enrollmentSecret));
    if (!company) throw new AppError('device.enrollmentRefused', 403);
    const password = randomToken(32);
    const now = this.clock.now();
    const existing = await this.devices.findCredentials(request.serial);
    if (existing && existing.org_id !== company.org_id) throw new AppError('device.enrolledElsewhere', 409);
    const reported = { ...(request.model ? { model: request.model } : {}), ...(request.machineType ? { machine_type: request.machineType } : {}) };
    if (existing) {
      // Re-enrollment (factory reset, new firmware): the old password stops working.
      await this.devices.updateSecret(existing.id, tokenHash(password), { ...reported, enrolled_at: now });
    } else {
      await this.devices.insert({
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
    };
  }

  /** The listed keys that belong to the organisation (presence is never told across companies). */
  ownedKeys(orgId: number, keys: string[]): Promise<string[]> {
    return this.devices.ownedKeys(orgId, keys);
  }
}

export function toDeviceRow(r: DeviceRecord, tags: string[], online: boolean): device.DeviceRow {
  return {
    deviceId: r.id,
    deviceName: r.name,
    deviceKey: r.device_key,
    remark: r.remark,
    state: r.state === 1 ? 1 : 0,
    tag: tags.join('-'),
    isOnline: online ? '1' : '0',
    model: r.model,
    machineType: r.machine_type,
    otaVersion: r.ota_version,
    latitude: r.latitude,
    longitude: r.longitude,
    localIp: r.local_ip,
    publicIp: r.public_ip,
    ramTotal: r.ram_total,
    ramUsed: r.ram_used,
    apkCurrent: r.apk_current,
    apkTotal: r.apk_total,
    otaCurrent: r.ota_current,
    otaTotal: r.ota_total,
    netWorkIntensity: r.network_intensity,
    netWorkState: device.NETWORK_STATES.find((s) => s === r.network_state) ?? null,
    cpuTemperature: r.cpu_temperature,
    brightness: r.brightness,
    volume: r.volume,
    mute: r.mute === null ? null : r.mute === 1,
    source: r.source,
    power: device.POWER_STATES.find((s) => s === r.power) ?? null,
    lastSeenAt: r.last_seen_at,
  };
}
