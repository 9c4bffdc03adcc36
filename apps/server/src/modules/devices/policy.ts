import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';

/** Devices, labels and commands: the company account (2) and its administrators (4), in their own organisation. */
export function requireDeviceOperator(user: SessionUser): number {
  if (user.userType !== '2' && user.userType !== '4') throw new AppError('device.customersOnly', 403);
  return user.orgId;
}
