import { Refusal } from '../../refusal.js';
import type { DeviceRecord, DeviceRepository } from './repository.js';

/** A device of the caller's organisation (another tenant's id reads as unknown). */
export async function findOwnDevice(
  devices: Pick<DeviceRepository, 'findById'>,
  orgId: number,
  deviceId: number,
): Promise<DeviceRecord> {
  const found = await devices.findById(orgId, deviceId);
  if (!found) throw new Refusal('device.notFound', 'notFound');
  return found;
}

/** A device that may be sent something: own, and enabled. */
export async function findSendableDevice(
  devices: Pick<DeviceRepository, 'findById'>,
  orgId: number,
  deviceId: number,
): Promise<DeviceRecord> {
  const found = await findOwnDevice(devices, orgId, deviceId);
  if (found.state !== 1) throw new Refusal('device.disabled', 'conflict');
  return found;
}
