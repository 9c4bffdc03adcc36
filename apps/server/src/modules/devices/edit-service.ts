import type { Clock } from '../../clock.js';
import type { Transact } from '../../db/unit-of-work.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { DeviceRepository } from './repository.js';

export interface DeviceEdit {
  deviceId: number;
  deviceName: string;
  deviceKey: string;
  /** The names of the device's labels (the contract's `tag`). */
  labelNames: string[];
  remark: string;
  state: number;
}

/**
 * What a device edit needs of the labels (the labels module's repository satisfies it; the
 * devices module does not depend on that module).
 */
export interface DeviceLabelWriter {
  /** Ids of the named labels, creating the ones that do not exist yet. */
  ensureNames(orgId: number, names: string[], now: number): Promise<number[]>;
  /** The devices get exactly these labels. */
  replaceLabelsOf(orgId: number, deviceIds: number[], labelIds: number[]): Promise<void>;
}

export interface DeviceEditDeps {
  clock: Clock;
  /** A transaction over the devices, their labels and the operation log. */
  transact: Transact<{
    devices: Pick<DeviceRepository, 'findById' | 'updateEditable'>;
    labels: DeviceLabelWriter;
    log: OperationLog;
  }>;
  /** Called when a panel's state changes, so the gateway re-reads whether it may connect. */
  onStateChanged(deviceKey: string): void;
}

/**
 * Edit device (spec 2 sections 5 and 7): name, labels, remark and state in one transaction, with
 * its operation-log row. The serial number is the panel's identity and never changes here.
 */
export class DeviceEditService {
  constructor(private readonly deps: DeviceEditDeps) {}

  async update(caller: SessionUser, ip: string, edit: DeviceEdit): Promise<void> {
    const orgId = caller.orgId;
    const now = this.deps.clock.now();
    const before = await this.deps.transact(async ({ devices, labels, log }) => {
      const found = await devices.findById(orgId, edit.deviceId);
      if (!found) throw new Refusal('device.notFound', 'notFound');
      if (edit.deviceKey !== found.device_key) throw new Refusal('deviceManage.serialReadOnly', 'invalid');
      const labelIds = await labels.ensureNames(orgId, edit.labelNames, now);
      await labels.replaceLabelsOf(orgId, [found.id], labelIds);
      await devices.updateEditable(orgId, found.id, {
        name: edit.deviceName,
        remark: edit.remark,
        state: edit.state,
      });
      await log.recordBy(
        caller,
        ip,
        'device.update',
        `${found.device_key}: name "${edit.deviceName}", labels ${edit.labelNames.join('-')}, state ${edit.state}, remark "${edit.remark}"`,
      );
      return found;
    });
    if (before.state !== edit.state) this.deps.onStateChanged(before.device_key);
  }
}
