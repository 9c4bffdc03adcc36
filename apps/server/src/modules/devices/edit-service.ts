import { oplog } from '@panelfleet/contract';
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
  /** Undefined: the location stays as it is. */
  location?: string;
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
    devices: Pick<DeviceRepository, 'findById' | 'updateEditable' | 'deleteDevice' | 'retire'>;
    labels: DeviceLabelWriter;
    log: OperationLog;
  }>;
  /** Called when a panel's state changes, so the gateway re-reads whether it may connect. */
  onStateChanged(deviceKey: string): void;
  /** Called when a panel was removed: every instance drops its credentials and its broker session. */
  onRemoved(deviceKey: string): void;
}

/**
 * Edit device (spec 2 sections 5 and 7): name, labels, remark, location and state in one transaction, with
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
      const location = edit.location ?? found.location;
      await devices.updateEditable(orgId, found.id, {
        name: edit.deviceName,
        remark: edit.remark,
        location,
        state: edit.state,
      });
      await log.recordBy(caller, ip, 'device.update', {
        k: 'deviceEditPlace',
        v: {
          device: found.device_key,
          name: edit.deviceName,
          labels: edit.labelNames,
          state: oplog.term(edit.state === 1 ? 'state.enabled' : 'state.disabled'),
          remark: edit.remark || oplog.term('none'),
          location: location || oplog.term('none'),
        },
      });
      return found;
    });
    if (before.state !== edit.state) this.deps.onStateChanged(before.device_key);
  }

  /**
   * Removes a panel (issue 25 item 13): with its history kept (it leaves the company's panels,
   * what it reported stays) or deleted with it; then its access ends on every instance.
   */
  async remove(caller: SessionUser, ip: string, deviceId: number, keepHistory: boolean) {
    const orgId = caller.orgId;
    const removed = await this.deps.transact(async ({ devices, log }) => {
      const found = await devices.findById(orgId, deviceId);
      if (!found) throw new Refusal('device.notFound', 'notFound');
      await log.recordBy(caller, ip, 'device.remove', {
        k: 'deviceRemove',
        v: {
          device: found.device_key,
          name: found.name,
          history: oplog.term(keepHistory ? 'history.kept' : 'history.deleted'),
        },
      });
      if (keepHistory) await devices.retire(orgId, found.id);
      else await devices.deleteDevice(orgId, found.id);
      return found;
    });
    this.deps.onRemoved(removed.device_key);
    return { deviceId: removed.id, historyKept: keepHistory ? ('1' as const) : ('0' as const) };
  }
}
