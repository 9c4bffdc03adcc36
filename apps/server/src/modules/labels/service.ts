import type { Kysely } from 'kysely';
import type { device } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import { DeviceRepository } from '../devices/repository.js';
import { OperationLog } from '../operation-log/repository.js';
import { LabelRepository } from './repository.js';

/** Labels (groups): create, give selected devices their labels, list the devices of labels. */
export class LabelService {
  private readonly labels: LabelRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {
    this.labels = new LabelRepository(db);
  }

  list(orgId: number) {
    return this.labels.list(orgId);
  }

  /** Refuses unless every id is a label of the organisation (another tenant's reads as missing). */
  async requireOwned(orgId: number, groupIds: number[]) {
    if ((await this.labels.ownedCount(orgId, groupIds)) !== new Set(groupIds).size) throw new AppError('label.notFound', 404);
  }

  async create(caller: SessionUser, ip: string, name: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const labels = new LabelRepository(trx);
      if (await labels.findByName(caller.orgId, name)) throw new AppError('group.nameTaken', 409);
      const id = await labels.insert(caller.orgId, name, this.clock.now());
      await new OperationLog(trx, this.clock.now).recordBy(caller, ip, 'label.create', name);
      return id;
    });
  }

  /** The selected devices get exactly the chosen labels; any id not of the caller's organisation refuses all. */
  async saveDevices(caller: SessionUser, ip: string, deviceIds: number[], groupIds: number[]) {
    const orgId = caller.orgId;
    const devicesWanted = [...new Set(deviceIds)];
    const labelsWanted = [...new Set(groupIds)];
    await this.db.transaction().execute(async (trx) => {
      const labels = new LabelRepository(trx);
      if ((await labels.ownedCount(orgId, labelsWanted)) !== labelsWanted.length) throw new AppError('label.notFound', 404);
      const found = await new DeviceRepository(trx).findByIds(orgId, devicesWanted);
      if (found.length !== devicesWanted.length) throw new AppError('device.notFound', 404);
      await labels.replaceLabelsOf(orgId, devicesWanted, labelsWanted);
      await new OperationLog(trx, this.clock.now).recordBy(
        caller,
        ip,
        'label.assign',
        `labels ${labelsWanted.join(',')} for devices ${found.map((d) => d.device_key).join(',')}`,
      );
    });
  }

  async devicePage(
    orgId: number,
    params: { tags: number[]; start: number; size: number },
    isOnline: (deviceKey: string) => boolean,
  ): Promise<{ rows: device.LabelDeviceRow[]; total: number }> {
    await this.requireOwned(orgId, params.tags);
    const offset = (Math.max(params.start, 1) - 1) * params.size;
    const { rows, total } = await this.labels.devicePage(orgId, [...new Set(params.tags)], offset, params.size);
    const tags = await new DeviceRepository(this.db).tagsOf(orgId, rows.map((r) => r.id));
    return {
      rows: rows.map((r) => ({
        deviceId: r.id,
        deviceName: r.name,
        deviceKey: r.device_key,
        machineType: r.machine_type,
        state: r.state === 1 ? 1 : 0,
        tag: (tags.get(r.id) ?? []).join('-'),
        isOnline: isOnline(r.device_key) ? '1' : '0',
      })),
      total,
    };
  }
}
