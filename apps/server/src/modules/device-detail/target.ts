import { AppError } from '../../http/app-error.js';
import type { DeviceRecord, DeviceRepository } from '../devices/repository.js';

/** A device of the caller's organisation (another tenant's id reads as unknown). */
export async function findOwnDevice(devices: DeviceRepository, orgId: number, deviceId: number): Promise<DeviceRecord> {
  const found = await devices.findById(orgId, deviceId);
  if (!found) throw new AppError('device.notFound', 404);
  return found;
}

/** A device that may be sent something: own, and enabled. */
export async function findSendableDevice(devices: DeviceRepository, orgId: number, deviceId: number): Promise<DeviceRecord> {
  const found = await findOwnDevice(devices, orgId, deviceId);
  if (found.state !== 1) throw new AppError('device.disabled', 409);
  return found;
}
