import { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { DeviceRepository, DeviceRecord } from './repository.js';
import type { EnrollmentRepository } from './enrollment-repository.js';

/** The console's side of enrollment: the company enrollment secret, and which panels are its own. */
export class DeviceService {
  constructor(
    private readonly devices: Pick<DeviceRepository, 'ownedKeys'>,
    private readonly secrets: Pick<EnrollmentRepository, 'findByOrg' | 'upsert'>,
    private readonly clock: Clock,
  ) {}

  async enrollmentSecret(orgId: number) {
    const existing = await this.secrets.findByOrg(orgId);
    if (existing) return { enrollmentSecret: existing.secret, rotatedAt: existing.rotated_at };
    return this.rotateEnrollmentSecret(orgId);
  }

  async rotateEnrollmentSecret(orgId: number) {
    const secret = randomToken(24);
    const rotatedAt = this.clock.now();
    await this.secrets.upsert({
      org_id: orgId,
      secret,
      secret_hash: tokenHash(secret),
      rotated_at: rotatedAt,
    });
    return { enrollmentSecret: secret, rotatedAt };
  }

  /** The listed keys that belong to the organisation (presence is never told across companies). */
  ownedKeys(orgId: number, keys: string[]): Promise<string[]> {
    return this.devices.ownedKeys(orgId, keys);
  }
}

export function toDeviceRow(r: DeviceRecord, labelNames: string[], online: boolean): device.DeviceRow {
  return {
    deviceId: r.id,
    deviceName: r.name,
    deviceKey: r.device_key,
    remark: r.remark,
    location: r.location,
    state: r.state === 1 ? 1 : 0,
    tag: labelNames.join('-'),
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
