import { device, translate, type deviceDetail, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import type { CommandService } from '../commands/service.js';
import type { DeviceRepository } from '../devices/repository.js';
import { toDeviceRow } from '../devices/service.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { DeviceSettingRecord, DeviceSettingsRepository } from './repository.js';
import { findOwnDevice, findSendableDevice } from './target.js';

export interface DeviceDetailDeps {
  devices: DeviceRepository;
  settings: DeviceSettingsRepository;
  commands: CommandService;
  log: OperationLog;
  clock: Clock;
  isOnline(deviceKey: string): boolean;
  /** The catalog id of the machine type a panel reports by name; null when the catalog has none. */
  machineTypeIdOf(name: string): Promise<number | null>;
}

interface Caller {
  user: SessionUser;
  ip: string;
  language: Language;
}

const sectionsOf = (rows: DeviceSettingRecord[]) => Object.fromEntries(rows.map((r) => [r.section, JSON.parse(r.value) as unknown]));

/** The detail modal's reads and the settings a panel reports, changes and clones. */
export class DeviceDetailService {
  constructor(private readonly deps: DeviceDetailDeps) {}

  async detail(orgId: number, deviceId: number): Promise<deviceDetail.DeviceDetail> {
    const found = await findOwnDevice(this.deps.devices, orgId, deviceId);
    const [tags, machineTypeId] = await Promise.all([
      this.deps.devices.tagsOf(orgId, [found.id]),
      found.machine_type ? this.deps.machineTypeIdOf(found.machine_type) : Promise.resolve(null),
    ]);
    return { ...toDeviceRow(found, tags.get(found.id) ?? [], this.deps.isOnline(found.device_key)), machineTypeId };
  }

  async settings(orgId: number, deviceId: number) {
    await findOwnDevice(this.deps.devices, orgId, deviceId);
    const rows = await this.deps.settings.ofDevice(orgId, deviceId);
    const platform = rows[0]?.platform;
    return {
      platform: platform !== undefined && device.isSeries(platform) ? platform : null,
      rows: rows.map((r) => ({ deviceSettingId: r.id, section: r.section as device.SettingSection, value: JSON.parse(r.value) as unknown, reportedAt: r.reported_at })),
    };
  }

  /** A complete settings report of a panel (the gateway hands it over, already validated). */
  recordReport(orgId: number, deviceId: number, report: device.SettingsReport) {
    return this.deps.settings.replace(orgId, deviceId, report.platform, report.platformMsg, this.deps.clock.now());
  }

  /** Sends the changed sections and fields; checked against what the panel reported, so the result is valid settings. */
  async change(caller: Caller, deviceId: number, jsonData: string) {
    const orgId = caller.user.orgId;
    const target = await findSendableDevice(this.deps.devices, orgId, deviceId);
    let change: unknown;
    try {
      change = JSON.parse(jsonData);
    } catch {
      throw new AppError('setting.valueInvalid', 400);
    }
    const rows = await this.deps.settings.ofDevice(orgId, deviceId);
    const series = rows[0]?.platform;
    if (series === undefined || !device.isSeries(series)) throw new AppError('setting.notReported', 409);
    const checked = device.applySettingsChange(series, sectionsOf(rows), change);
    if (!checked.ok) throw new AppError(checked.key, 400);
    if (!Object.keys(checked.change).length) throw new AppError('deviceManage.selectSettingToPush', 400);
    const value = { platform: series, platformMsg: checked.change } as device.SettingsChange;
    const [commandId] = await this.deps.commands.create(orgId, caller.user.id, [{ id: target.id, deviceKey: target.device_key }], 'SETTINGS', value);
    await this.deps.log.recordBy(caller.user, caller.ip, 'deviceSetting.update', `${target.name}: ${JSON.stringify(checked.change)}`);
    return commandId!;
  }

  /** Clone: the chosen sections of one panel's reported settings go to panels of the same series. */
  async clone(caller: Caller, settingIds: number[], deviceIds: number[]) {
    const orgId = caller.user.orgId;
    const rows = await this.deps.settings.byIds(orgId, settingIds);
    const source = rows[0];
    if (!source || rows.length !== settingIds.length || rows.some((r) => r.device_id !== source.device_id)) {
      throw new AppError('deviceManage.selectSettingToPush', 400);
    }
    const series = source.platform;
    if (!device.isSeries(series)) throw new AppError('setting.notReported', 409);
    const targets = (await this.deps.devices.findByIds(orgId, deviceIds)).filter((d) => d.id !== source.device_id);
    if (targets.length !== deviceIds.filter((id) => id !== source.device_id).length) throw new AppError('device.notFound', 404);
    if (!targets.length) throw new AppError('setting.chooseDevice', 400);
    const disabled = targets.filter((d) => d.state !== 1);
    if (disabled.length) throw new AppError('device.disabled', 409);
    const others = targets.filter((d) => d.machine_type !== series);
    if (others.length) {
      throw new AppError('setting.seriesMismatch', 400, { series, names: others.slice(0, 5).map((d) => d.name).join(', ') });
    }
    const change = device.partialPlatformMsgSchemas[series].parse(sectionsOf(rows));
    const value = { platform: series, platformMsg: change } as device.SettingsChange;
    const ids = await this.deps.commands.create(orgId, caller.user.id, targets.map((t) => ({ id: t.id, deviceKey: t.device_key })), 'SETTINGS', value);
    await this.deps.log.recordBy(
      caller.user,
      caller.ip,
      'deviceSetting.clone',
      `${rows.map((r) => r.section).join(',')} -> ${targets.length} devices: ${targets.slice(0, 20).map((t) => t.name).join(', ')}`,
    );
    return { count: ids.length, message: translate(caller.language, 'setting.cloned', { count: ids.length }) };
  }
}
