import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import { LabelRepository } from '../labels/repository.js';
import { OperationLog } from '../operation-log/repository.js';
import { DeviceRepository } from './repository.js';

export interface DeviceEdit {
  deviceId: number;
  deviceName: string;
  deviceKey: string;
  tag: string[];
  remark: string;
  state: number;
}

/**
 * Edit device (spec 2 sections 5 and 7): name, labels, remark and state in one transaction, with
 * its operation-log row. The serial number is the panel's identity and never changes here.
 */
export class DeviceEditService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Called when a panel's state changes, so the gateway re-reads whether it may connect. */
    private readonly onStateChanged: (deviceKey: string) => void,
  ) {}

  async update(caller: SessionUser, ip: string, edit: DeviceEdit): Promise<void> {
    const orgId = caller.orgId;
    const now = this.clock.now();
    const before = await this.db.transaction().execute(async (trx) => {
      const devices = new DeviceRepository(trx);
      const found = await devices.findById(orgId, edit.deviceId);
      if (!found) throw new AppError('device.notFound', 404);
      if (edit.deviceKey !== found.device_key) throw new AppError('deviceManage.serialReadOnly', 400);
      const labels = new LabelRepository(trx);
      const groupIds = await labels.ensureNames(orgId, edit.tag, now);
      await labels.replaceLabelsOf(orgId, [found.id], groupIds);
      await devices.updateEditable(orgId, found.id, { name: edit.deviceName, remark: edit.remark, state: edit.state });
      await new OperationLog(trx, this.clock.now).recordBy(
        caller,
        ip,
        'device.update',
        `${found.device_key}: name "${edit.deviceName}", labels ${edit.tag.join('-')}, state ${edit.state}, remark "${edit.remark}"`,
      );
      return found;
    });
    if (before.state !== edit.state) this.onStateChanged(before.device_key);
  }
}
