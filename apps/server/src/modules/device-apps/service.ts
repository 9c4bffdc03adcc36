import type { device, deviceDetail } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { CommandRepository } from '../commands/repository.js';
import type { CommandService } from '../commands/service.js';
import { findOwnDevice, findSendableDevice } from '../devices/target.js';
import type { DeviceRecord, DeviceRepository } from '../devices/repository.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { DeviceAppsRepository } from './repository.js';

export interface DeviceAppsDeps {
  devices: DeviceRepository;
  apps: DeviceAppsRepository;
  commands: CommandService;
  commandRecords: CommandRepository;
  log: OperationLog;
  clock: Clock;
  isOnline(deviceKey: string): boolean;
  /** How long an uninstall request waits for the panel's answer before replying "on its way". */
  uninstallWaitMs?: number;
}

const DEFAULT_WAIT_MS = 8000;
const POLL_MS = 150;

export interface UninstallOutcome {
  appList: Array<{ packageName: string; uninstallStatus: boolean }>;
}

/** The app list a panel reports and the uninstalls sent to it (spec 2 sections 4 and 5). */
export class DeviceAppsService {
  constructor(private readonly deps: DeviceAppsDeps) {}

  async list(orgId: number, deviceId: number): Promise<deviceDetail.DeviceApp[]> {
    await findOwnDevice(this.deps.devices, orgId, deviceId);
    const [apps, uninstalling] = await Promise.all([
      this.deps.devices.apps(orgId, deviceId),
      this.deps.apps.uninstallingPackages(orgId, deviceId, this.deps.clock.now()),
    ]);
    return apps.map((a) => ({
      appName: a.app_name,
      packageName: a.package_name,
      versionName: a.version_name,
      // Known once an APK repository holds newer versions; until then no app has one.
      newVersionName: null,
      appSize: a.app_size,
      appLevel: a.app_level === 1 ? 1 : 0,
      iconName: a.icon_name,
      status: uninstalling.has(a.package_name) ? 'uninstall' : 'normal',
    }));
  }

  /**
   * Sends UNINSTALL for user apps the panel reported, then waits a little for its answer: the
   * console removes the rows the reply marks uninstalled and shows the rest as on their way.
   */
  async uninstall(
    caller: { user: SessionUser; ip: string },
    deviceId: number,
    packageNames: string[],
  ): Promise<UninstallOutcome> {
    const orgId = caller.user.orgId;
    const target = await findSendableDevice(this.deps.devices, orgId, deviceId);
    const value = await this.checkedUninstall(target, packageNames);
    const [commandId] = await this.deps.commands.create(
      orgId,
      caller.user.id,
      [{ id: target.id, deviceKey: target.device_key }],
      'UNINSTALL',
      value,
    );
    await this.deps.log.recordBy(
      caller.user,
      caller.ip,
      'device.uninstallApk',
      `${target.name}: ${packageNames.join(',')}`,
    );
    const final = await this.finalState(orgId, commandId!);
    // The panel said no (or never answered in time): the caller hears its reason.
    if (final?.status === 'failed' || final?.status === 'expired')
      throw new Refusal('deviceManage.uninstallFailed', 'declined', { detail: final.detail || final.status });
    const confirmed = final?.status === 'succeeded';
    return {
      appList: packageNames.map((packageName) => ({ packageName, uninstallStatus: confirmed })),
    };
  }

  /**
   * The rules of an UNINSTALL, whichever call sends it (this service's or the generic command
   * call): the panel is online, and every package is a user app it reported that is not already
   * being uninstalled. The target is the caller's, enabled device (findSendableDevice).
   */
  async checkedUninstall(
    target: DeviceRecord,
    packageNames: string[],
  ): Promise<device.OrderValue<'UNINSTALL'>> {
    const orgId = target.org_id;
    if (!this.deps.isOnline(target.device_key)) throw new Refusal('device.offline', 'conflict');
    const reported = new Map(
      (await this.deps.devices.apps(orgId, target.id)).map((a) => [a.package_name, a]),
    );
    const unknown = packageNames.find((name) => !reported.has(name));
    if (unknown) throw new Refusal('deviceManage.apkUnknown', 'invalid', { name: unknown });
    if (packageNames.some((name) => reported.get(name)!.app_level === 1))
      throw new Refusal('deviceManage.SystemApkUninstall', 'invalid');
    const uninstalling = await this.deps.apps.uninstallingPackages(orgId, target.id, this.deps.clock.now());
    const busy = packageNames.find((name) => uninstalling.has(name));
    if (busy)
      throw new Refusal('deviceManage.apkUninstalling', 'conflict', { name: reported.get(busy)!.app_name });
    return { packageNames };
  }

  private async finalState(orgId: number, commandId: string) {
    const deadline = Date.now() + (this.deps.uninstallWaitMs ?? DEFAULT_WAIT_MS);
    for (;;) {
      const row = await this.deps.commandRecords.findOne(orgId, commandId);
      if (row && ['succeeded', 'failed', 'expired'].includes(row.status)) return row;
      if (Date.now() >= deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
