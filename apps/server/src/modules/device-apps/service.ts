import type { deviceDetail } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { AppError } from '../../http/app-error.js';
import type { SessionUser } from '../../http/router.js';
import type { CommandRepository } from '../commands/repository.js';
import type { CommandService } from '../commands/service.js';
import { findOwnDevice, findSendableDevice } from '../device-detail/target.js';
import type { DeviceRepository } from '../devices/repository.js';
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

export type UninstallOutcome =
  | { kind: 'done'; appList: Array<{ packageName: string; uninstallStatus: boolean }> }
  | { kind: 'refused'; detail: string };

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
  async uninstall(caller: { user: SessionUser; ip: string }, deviceId: number, packageNames: string[]): Promise<UninstallOutcome> {
    const orgId = caller.user.orgId;
    const target = await findSendableDevice(this.deps.devices, orgId, deviceId);
    if (!this.deps.isOnline(target.device_key)) throw new AppError('device.offline', 409);
    const reported = new Map((await this.deps.devices.apps(orgId, deviceId)).map((a) => [a.package_name, a]));
    const unknown = packageNames.find((name) => !reported.has(name));
    if (unknown) throw new AppError('deviceManage.apkUnknown', 400, { name: unknown });
    if (packageNames.some((name) => reported.get(name)!.app_level === 1)) throw new AppError('deviceManage.SystemApkUninstall', 400);
    const uninstalling = await this.deps.apps.uninstallingPackages(orgId, deviceId, this.deps.clock.now());
    const busy = packageNames.find((name) => uninstalling.has(name));
    if (busy) throw new AppError('deviceManage.apkUninstalling', 409, { name: reported.get(busy)!.app_name });

    const [commandId] = await this.deps.commands.create(orgId, caller.user.id, [{ id: target.id, deviceKey: target.device_key }], 'UNINSTALL', { packageNames });
    await this.deps.log.recordBy(caller.user, caller.ip, 'device.uninstallApk', `${target.name}: ${packageNames.join(',')}`);
    const final = await this.finalState(orgId, commandId!);
    if (final?.status === 'failed' || final?.status === 'expired') return { kind: 'refused', detail: final.detail || final.status };
    const confirmed = final?.status === 'succeeded';
    return { kind: 'done', appList: packageNames.map((packageName) => ({ packageName, uninstallStatus: confirmed })) };
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
