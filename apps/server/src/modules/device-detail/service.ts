import { device, oplog, translate, type deviceDetail, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { CommandService } from '../commands/service.js';
import type { DeviceRecord, DeviceRepository } from '../devices/repository.js';
import { toDeviceRow } from '../devices/service.js';
import type { OperationLog } from '../operation-log/repository.js';
import { panelName, settingsChangeFields } from '../operation-log/words.js';
import type { DeviceSettingRecord, DeviceSettingsRepository } from './repository.js';
import { findOwnDevice, findSendableDevice } from '../devices/target.js';
import { reachOf, type MatchingDevices } from '../devices/matching-repository.js';

export interface DeviceDetailDeps {
  devices: DeviceRepository;
  settings: DeviceSettingsRepository;
  commands: CommandService;
  log: OperationLog;
  clock: Clock;
  isOnline(deviceKey: string): boolean;
  /** The catalog id of the machine type a panel reports by name; null when the catalog has none. */
  machineTypeIdOf(name: string): Promise<number | null>;
  /** "All N matching": the panels a filter names. */
  matching: Pick<MatchingDevices, 'ids'>;
}

interface Caller {
  user: SessionUser;
  ip: string;
  language: Language;
}

const sectionsOf = (rows: DeviceSettingRecord[]) =>
  Object.fromEntries(rows.map((r) => [r.section, JSON.parse(r.value) as unknown]));

/** The detail modal's reads and the settings a panel reports, changes and clones. */
export class DeviceDetailService {
  constructor(private readonly deps: DeviceDetailDeps) {}

  async detail(orgId: number, deviceId: number): Promise<deviceDetail.DeviceDetail> {
    const found = await findOwnDevice(this.deps.devices, orgId, deviceId);
    const [labelNames, machineTypeId] = await Promise.all([
      this.deps.devices.labelNamesOf(orgId, [found.id]),
      found.machine_type ? this.deps.machineTypeIdOf(found.machine_type) : Promise.resolve(null),
    ]);
    return {
      ...toDeviceRow(found, labelNames.get(found.id) ?? [], this.deps.isOnline(found.device_key)),
      machineTypeId,
      clockOffsetMs: found.clock_offset_ms,
      clockCheckedAt: found.clock_offset_at,
      mac: found.mac,
      netmask: found.netmask,
      utcOffset: found.utc_offset,
    };
  }

  async settings(orgId: number, deviceId: number) {
    await findOwnDevice(this.deps.devices, orgId, deviceId);
    const rows = await this.deps.settings.ofDevice(orgId, deviceId);
    const platform = rows[0]?.platform;
    return {
      platform: platform !== undefined && device.isSeries(platform) ? platform : null,
      rows: rows.map((r) => ({
        deviceSettingId: r.id,
        section: r.section as device.SettingSection,
        value: JSON.parse(r.value) as unknown,
        reportedAt: r.reported_at,
      })),
    };
  }

  /** A complete settings report of a panel (the gateway hands it over, already validated). */
  recordReport(orgId: number, deviceId: number, report: device.SettingsReport) {
    return this.deps.settings.replace(
      orgId,
      deviceId,
      report.platform,
      report.platformMsg,
      this.deps.clock.now(),
    );
  }

  /** Sends the changed sections and fields; checked against what the panel reported, so the result is valid settings. */
  async change(caller: Caller, deviceId: number, jsonData: string) {
    const orgId = caller.user.orgId;
    const target = await findSendableDevice(this.deps.devices, orgId, deviceId);
    let change: unknown;
    try {
      change = JSON.parse(jsonData);
    } catch {
      throw new Refusal('setting.valueInvalid', 'invalid');
    }
    const value = await this.checkedChange(target, change);
    const [commandId] = await this.deps.commands.create(
      orgId,
      caller.user.id,
      [{ id: target.id, deviceKey: target.device_key }],
      'SETTINGS',
      value,
    );
    await this.deps.log.recordBy(caller.user, caller.ip, 'deviceSetting.update', {
      k: 'deviceSettings',
      v: { device: panelName(target), fields: settingsChangeFields(value) },
    });
    return commandId!;
  }

  /**
   * The rules of a SETTINGS change, whichever call sends it (this service's or the generic command
   * call): the panel reported its settings, the change fits its series (`platform`, when the
   * caller names one, must be that series), the merged result is valid settings, and something
   * changes. The target is the caller's, enabled device (findSendableDevice).
   */
  async checkedChange(
    target: DeviceRecord,
    change: unknown,
    platform?: string,
  ): Promise<device.SettingsChange> {
    const rows = await this.deps.settings.ofDevice(target.org_id, target.id);
    const series = rows[0]?.platform;
    if (series === undefined || !device.isSeries(series))
      throw new Refusal('setting.notReported', 'conflict');
    if (platform !== undefined && platform !== series) throw new Refusal('setting.notForSeries', 'invalid');
    const checked = device.applySettingsChange(series, sectionsOf(rows), change);
    if (!checked.ok) throw new Refusal(checked.key, 'invalid');
    if (!Object.keys(checked.change).length) throw new Refusal('deviceManage.selectSettingToPush', 'invalid');
    return { platform: series, platformMsg: checked.change } as device.SettingsChange;
  }

  /**
   * Clone: the chosen sections of one panel's reported settings go to panels of the same series,
   * chosen one by one or every enabled panel matching a filter (resolved here, within the caller's
   * reach, at most MATCHING_PANELS_MAX as for ids).
   */
  async clone(caller: Caller, settingIds: number[], selection: device.PanelSelection) {
    const orgId = caller.user.orgId;
    const deviceIds =
      'matching' in selection
        ? await this.deps.matching.ids(reachOf(caller.user), selection.matching, device.MATCHING_PANELS_MAX)
        : selection.deviceIds;
    const rows = await this.deps.settings.byIds(orgId, settingIds);
    const source = rows[0];
    if (!source || rows.length !== settingIds.length || rows.some((r) => r.device_id !== source.device_id)) {
      throw new Refusal('deviceManage.selectSettingToPush', 'invalid');
    }
    const series = source.platform;
    if (!device.isSeries(series)) throw new Refusal('setting.notReported', 'conflict');
    const targets = (await this.deps.devices.findByIds(orgId, deviceIds)).filter(
      (d) => d.id !== source.device_id,
    );
    if (targets.length !== deviceIds.filter((id) => id !== source.device_id).length)
      throw new Refusal('device.notFound', 'notFound');
    if (!targets.length) throw new Refusal('setting.chooseDevice', 'invalid');
    const disabled = targets.filter((d) => d.state !== 1);
    if (disabled.length) throw new Refusal('device.disabled', 'conflict');
    const others = targets.filter((d) => d.machine_type !== series);
    if (others.length) {
      throw new Refusal('setting.seriesMismatch', 'invalid', {
        series,
        names: others
          .slice(0, 5)
          .map((d) => d.name)
          .join(', '),
      });
    }
    const change = device.partialPlatformMsgSchemas[series].parse(sectionsOf(rows));
    const value = { platform: series, platformMsg: change } as device.SettingsChange;
    const ids = await this.deps.commands.create(
      orgId,
      caller.user.id,
      targets.map((t) => ({ id: t.id, deviceKey: t.device_key })),
      'SETTINGS',
      value,
    );
    await this.deps.log.recordBy(caller.user, caller.ip, 'deviceSetting.clone', {
      k: 'settingsClone',
      v: {
        sections: rows.map((r) => oplog.term(`section.${r.section}`)),
        count: oplog.counted('panel', targets.length),
        devices: oplog.someOf(targets.map((t) => t.name)),
      },
    });
    return {
      count: ids.length,
      message: translate(caller.language, 'setting.cloned', { count: ids.length }),
    };
  }
}
