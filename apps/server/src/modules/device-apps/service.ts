import type { device, deviceDetail } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import type { SessionUser } from '../../http/router.js';
import type { CommandRepository } from '../commands/repository.js';
import type { CommandService } from '../commands/service.js';
import { signedByAnother } from '../apk/apk-signer.js';
import { findOwnDevice, findSendableDevice } from '../devices/target.js';
import type { DeviceRecord, DeviceRepository } from '../devices/repository.js';
import type { OperationLog } from '../operation-log/repository.js';
import { panelName } from '../operation-log/words.js';
import type { DeviceAppsRepository } from './repository.js';

/** The newest version the company's APK repository holds of a package (its card's signer). */
export interface RepositoryVersion {
  versionId: number;
  versionName: string;
  versionCode: number;
  signerSha256: string;
}

/** What Renew needs of the APK repository (supplied by the device-apps entry, index.ts). */
export interface ApkUpgrades {
  newest(orgId: number, packageNames: string[]): Promise<Map<string, RepositoryVersion>>;
  /** Packages with an install to the panel on its way. */
  installing(orgId: number, deviceId: number): Promise<Set<string>>;
  /** One install task per version on the panel, made as one whole; their ids in order. */
  install(caller: SessionUser, ip: string, deviceId: number, versionIds: number[]): Promise<number[]>;
}

export interface DeviceAppsDeps {
  devices: DeviceRepository;
  apps: DeviceAppsRepository;
  commands: CommandService;
  commandRecords: CommandRepository;
  log: OperationLog;
  clock: Clock;
  isOnline(deviceKey: string): boolean;
  upgrades: ApkUpgrades;
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
    const newest = await this.deps.upgrades.newest(
      orgId,
      apps.filter((a) => a.app_level !== 1).map((a) => a.package_name),
    );
    return apps.map((a) => {
      const offer = renewOffer(a, newest.get(a.package_name));
      return {
        appName: a.app_name,
        packageName: a.package_name,
        versionName: a.version_name,
        newVersionName: offer.ok ? offer.version.versionName : null,
        appSize: a.app_size,
        appLevel: a.app_level === 1 ? 1 : 0,
        iconName: a.icon_name,
        status: uninstalling.has(a.package_name) ? 'uninstall' : 'normal',
      };
    });
  }

  /**
   * Renew (spec 2 section 4, upgradeApk): user apps of an online panel are updated to the newest
   * version the repository holds of the same package and signer, one install task per app. Every
   * app is checked before anything is made; the first that cannot be renewed refuses them all.
   */
  async upgrade(caller: { user: SessionUser; ip: string }, deviceId: number, packageNames: string[]) {
    const orgId = caller.user.orgId;
    const target = await findSendableDevice(this.deps.devices, orgId, deviceId);
    if (!this.deps.isOnline(target.device_key)) throw new Refusal('device.offline', 'conflict');
    const reported = new Map(
      (await this.deps.devices.apps(orgId, target.id)).map((a) => [a.package_name, a]),
    );
    const [uninstalling, installing, newest] = await Promise.all([
      this.deps.apps.uninstallingPackages(orgId, target.id, this.deps.clock.now()),
      this.deps.upgrades.installing(orgId, target.id),
      this.deps.upgrades.newest(orgId, packageNames),
    ]);
    const chosen: Array<{ packageName: string; version: RepositoryVersion }> = [];
    for (const name of packageNames) {
      const app = reported.get(name);
      if (!app) throw new Refusal('deviceManage.apkUnknown', 'invalid', { name });
      const vars = { name: app.app_name };
      if (app.app_level === 1) throw new Refusal('apk.renewSystemApp', 'invalid');
      if (uninstalling.has(name)) throw new Refusal('deviceManage.apkUninstalling', 'conflict', vars);
      if (installing.has(name)) throw new Refusal('apk.renewRunning', 'conflict', vars);
      const offer = renewOffer(app, newest.get(name));
      if (!offer.ok) throw new Refusal(offer.refusal, 'conflict', vars);
      chosen.push({ packageName: name, version: offer.version });
    }
    const taskIds = await this.deps.upgrades.install(
      caller.user,
      caller.ip,
      target.id,
      chosen.map((c) => c.version.versionId),
    );
    await this.deps.log.recordBy(caller.user, caller.ip, 'device.upgradeApk', {
      k: 'deviceApps',
      v: {
        device: panelName(target),
        apps: chosen.map((c) => `${reported.get(c.packageName)!.app_name} ${c.version.versionName}`),
      },
    });
    return {
      names: chosen.map((c) => reported.get(c.packageName)!.app_name),
      tasks: chosen.map((c, i) => ({
        packageName: c.packageName,
        versionName: c.version.versionName,
        taskId: taskIds[i]!,
      })),
    };
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
    await this.deps.log.recordBy(caller.user, caller.ip, 'device.uninstallApk', {
      k: 'deviceApps',
      v: { device: panelName(target), apps: packageNames },
    });
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

type RenewOffer =
  | { ok: true; version: RepositoryVersion }
  | { ok: false; refusal: 'apk.renewSignerUnknown' | 'apk.renewNoNewer' | 'apk.renewSignerDiffers' };

/**
 * Whether an installed app can be renewed: the panel reported its versionCode and signer, and the
 * repository holds a version of the package signed by the same certificate with a higher
 * versionCode (Android refuses anything else as an update).
 */
export function renewOffer(
  app: { version_code: number | string | null; signer_sha256: string },
  newest: RepositoryVersion | undefined,
): RenewOffer {
  if (!newest) return { ok: false, refusal: 'apk.renewNoNewer' };
  if (app.version_code === null || !app.signer_sha256)
    return { ok: false, refusal: 'apk.renewSignerUnknown' };
  if (signedByAnother(app, newest.signerSha256)) return { ok: false, refusal: 'apk.renewSignerDiffers' };
  if (newest.versionCode <= Number(app.version_code)) return { ok: false, refusal: 'apk.renewNoNewer' };
  return { ok: true, version: newest };
}
