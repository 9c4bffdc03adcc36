import { oplog, type device } from '@panelfleet/contract';
import { referencedLabels } from '../label-membership/repository.js';
import type { Clock } from '../../clock.js';
import type { Transact } from '../../db/unit-of-work.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { DeviceRepository } from '../devices/repository.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { LabelRepository } from './repository.js';

/**
 * Narrows the label page to some panels: of a machine type, or those an OTA file fits (the
 * force-upgrade dialog). Names of machine types and from-versions; undefined lists mean any.
 */
export type DeviceFitResolver = (
  caller: SessionUser,
  filter: { machineTypeId?: number; otaFileId?: number },
) => Promise<{ machineTypes?: string[]; fromVersions?: string[] }>;

export interface LabelServiceDeps {
  labels: LabelRepository;
  devices: Pick<DeviceRepository, 'labelNamesOf'>;
  clock: Clock;
  /** The device picker's filter by machine type or OTA file (answered by the OTA module). */
  deviceFit?: DeviceFitResolver;
  /** A transaction over the labels, the devices and the operation log. */
  transact: Transact<{
    labels: LabelRepository;
    devices: Pick<DeviceRepository, 'findByIds'>;
    log: OperationLog;
  }>;
}

/** Labels (the spec's groups and tags): create, give selected devices their labels, list the devices of labels. */
export class LabelService {
  constructor(private readonly deps: LabelServiceDeps) {}

  list(orgId: number) {
    return this.deps.labels.list(orgId);
  }

  listWithFilters(orgId: number) {
    return this.deps.labels.listWithFilters(orgId);
  }

  /** Refuses unless every id is a label of the organisation (another tenant's reads as missing). */
  async requireOwned(orgId: number, labelIds: number[]) {
    if ((await this.deps.labels.ownedCount(orgId, labelIds)) !== new Set(labelIds).size)
      throw new Refusal('label.notFound', 'notFound');
  }

  /**
   * Creates a dynamic label (no id) or changes one's name and filter. Labels the filter names
   * must be the company's (another's reads as missing) and not the label itself.
   */
  async saveDynamic(
    caller: SessionUser,
    ip: string,
    input: { groupId?: number; groupName: string; filter: device.LabelFilter },
  ): Promise<number> {
    const orgId = caller.orgId;
    const named = [...new Set(referencedLabels(input.filter))];
    if (input.groupId !== undefined && named.includes(input.groupId))
      throw new Refusal('labelFilter.invalid', 'invalid');
    const json = JSON.stringify(input.filter);
    return this.deps.transact(async ({ labels, log }) => {
      if ((await labels.ownedCount(orgId, named)) !== named.length)
        throw new Refusal('label.notFound', 'notFound');
      if (input.groupId === undefined) {
        const id = await labels.insert(orgId, input.groupName, this.deps.clock.now(), json);
        if (id === undefined) throw new Refusal('group.nameTaken', 'conflict');
        await log.recordBy(caller, ip, 'label.create', { k: 'name', v: { name: input.groupName } });
        return id;
      }
      const found = await labels.find(orgId, input.groupId);
      if (!found) throw new Refusal('label.notFound', 'notFound');
      if (found.filter === null) throw new Refusal('labelFilter.notDynamic', 'conflict');
      if (!(await labels.updateDynamic(orgId, input.groupId, input.groupName, json)))
        throw new Refusal('group.nameTaken', 'conflict');
      await log.recordBy(caller, ip, 'label.update', { k: 'name', v: { name: input.groupName } });
      return input.groupId;
    });
  }

  /** How many of the company's panels the filter matches now; labels it names must be the company's. */
  async countMatching(orgId: number, filter: device.LabelFilter): Promise<number> {
    await this.requireOwned(orgId, referencedLabels(filter));
    return this.deps.labels.countMatching(orgId, filter, this.deps.clock.now());
  }

  async create(caller: SessionUser, ip: string, name: string): Promise<number> {
    return this.deps.transact(async ({ labels, log }) => {
      const id = await labels.insert(caller.orgId, name, this.deps.clock.now());
      if (id === undefined) throw new Refusal('group.nameTaken', 'conflict');
      await log.recordBy(caller, ip, 'label.create', { k: 'name', v: { name } });
      return id;
    });
  }

  /** The selected devices get exactly the chosen labels; any id not of the caller's organisation refuses all. */
  async saveDevices(caller: SessionUser, ip: string, deviceIds: number[], labelIds: number[]) {
    const orgId = caller.orgId;
    const devicesWanted = [...new Set(deviceIds)];
    const labelsWanted = [...new Set(labelIds)];
    await this.deps.transact(async ({ labels, devices, log }) => {
      if ((await labels.ownedCount(orgId, labelsWanted)) !== labelsWanted.length)
        throw new Refusal('label.notFound', 'notFound');
      // The panels of a dynamic label follow its filter: none are added or removed by hand.
      if (await labels.dynamicCount(orgId, labelsWanted)) throw new Refusal('labelFilter.manualRefused');
      const found = await devices.findByIds(orgId, devicesWanted);
      if (found.length !== devicesWanted.length) throw new Refusal('device.notFound', 'notFound');
      await labels.replaceLabelsOf(orgId, devicesWanted, labelsWanted);
      const names = (await labels.list(orgId)).filter((l) => labelsWanted.includes(l.id)).map((l) => l.name);
      await log.recordBy(caller, ip, 'label.assign', {
        k: 'labelAssign',
        v: { devices: oplog.someOf(found.map((d) => d.name)), labels: names },
      });
    });
  }

  async devicePage(
    caller: SessionUser,
    params: { labelIds: number[]; start: number; size: number; machineTypeId?: number; otaFileId?: number },
    isOnline: (deviceKey: string) => boolean,
  ): Promise<{ rows: device.LabelDeviceRow[]; total: number }> {
    const orgId = caller.orgId;
    await this.requireOwned(orgId, params.labelIds);
    const filtered = params.machineTypeId !== undefined || params.otaFileId !== undefined;
    if (filtered && !this.deps.deviceFit) throw new Error('the device picker filter is not wired');
    const fit = filtered ? await this.deps.deviceFit!(caller, params) : {};
    const offset = (Math.max(params.start, 1) - 1) * params.size;
    const { rows, total } = await this.deps.labels.devicePage(
      orgId,
      [...new Set(params.labelIds)],
      offset,
      params.size,
      fit,
    );
    const labelNames = await this.deps.devices.labelNamesOf(
      orgId,
      rows.map((r) => r.id),
    );
    return {
      rows: rows.map((r) => ({
        deviceId: r.id,
        deviceName: r.name,
        deviceKey: r.device_key,
        machineType: r.machine_type,
        state: r.state === 1 ? 1 : 0,
        tag: (labelNames.get(r.id) ?? []).join('-'),
        isOnline: isOnline(r.device_key) ? '1' : '0',
      })),
      total,
    };
  }
}
