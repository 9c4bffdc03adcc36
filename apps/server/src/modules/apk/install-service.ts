import { immediateTask } from '../rollouts/immediate-task.js';
import {
  device,
  OPEN_TASK_STATES,
  oplog,
  TARGET_STATES,
  type apk,
  type TargetState,
} from '@panelfleet/contract';
import { reachOf, type MatchingDevices } from '../devices/matching-repository.js';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Transact } from '../../db/unit-of-work.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { RolloutEngine } from '../rollouts/engine.js';
import type { RolloutRepository, TaskRecord } from '../rollouts/repository.js';
import type { ApkPayload } from './apk-kind.js';
import type { ApkRepository } from './repository.js';

type Task = z.infer<typeof apk.apkTask>;
type TaskDevice = z.infer<typeof apk.apkTaskDevice>;

/** What one install task installs where. */
export interface InstallOrder {
  versionId: number;
  deviceIds: number[];
  labelIds: number[];
  allowDowngrade: boolean;
}

/**
 * Installs of the APK repository's versions on panels (spec 3 section 2.6; protocol 6.4): rollout
 * tasks of kind apk over chosen panels or the members of labels, followed panel by panel, and
 * the device detail's Renew, which installs the newest version of a package on one panel. A task
 * is made while its card's row is locked, so a version is never deleted under an install.
 */
export class ApkInstallService {
  constructor(
    private readonly deps: {
      apks: ApkRepository;
      rollouts: RolloutRepository;
      /** The card lock and the task in one transaction. */
      transact: Transact<{ apks: ApkRepository; rollouts: RolloutRepository }>;
      engine: Pick<RolloutEngine, 'wake' | 'cancelTask'>;
      labelsOwned(orgId: number, labelIds: number[]): Promise<number>;
      /** "All N matching": the panels a filter names, within the caller's reach. */
      matching: Pick<MatchingDevices, 'ids'>;
      /** The names of the caller's labels with these ids (the operation log names them). */
      labelNames(orgId: number, labelIds: number[]): Promise<string[]>;
      isOnline(deviceKey: string): boolean;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  /** An install task of a version on chosen panels or the panels of labels of the caller's company. */
  async install(
    caller: SessionUser,
    ip: string,
    p: {
      apkVersionId: number;
      deviceIds: number[];
      tagIds: number[];
      allowDowngrade: '0' | '1';
      matching?: device.PanelMatching | undefined;
    },
  ) {
    if (!(await this.deps.apks.version(caller.orgId, p.apkVersionId)))
      throw new Refusal('apk.versionNotFound', 'notFound');
    // Every panel matching the filter, resolved here (never ids the browser held), as many as ids may name.
    const deviceIds = p.matching
      ? await this.deps.matching.ids(reachOf(caller), p.matching, device.MATCHING_PANELS_MAX)
      : p.deviceIds;
    if (p.tagIds.length && (await this.deps.labelsOwned(caller.orgId, p.tagIds)) !== p.tagIds.length)
      throw new Refusal('label.notFound', 'notFound');
    if (
      !p.matching &&
      deviceIds.length &&
      (await this.deps.apks.ownedDeviceCount(caller.orgId, deviceIds)) !== deviceIds.length
    )
      throw new Refusal('device.notFound', 'notFound');
    const [created] = await this.createTasks(caller, ip, [
      {
        versionId: p.apkVersionId,
        deviceIds,
        labelIds: p.tagIds,
        allowDowngrade: p.allowDowngrade === '1',
      },
    ]);
    return created!;
  }

  /**
   * The tasks of several orders as one whole (Renew: one task per app of a panel): each card is
   * locked and its version read again inside the transaction; a version gone meanwhile refuses
   * them all.
   */
  async createTasks(caller: SessionUser, ip: string, orders: InstallOrder[]) {
    const now = this.deps.clock.now();
    const created = await this.deps.transact(async ({ apks, rollouts }) => {
      const out: Array<{
        taskId: number;
        deviceCount: number;
        skippedCount: number;
        logged: { version: { package_name: string; version_name: string }; labelIds: number[] };
      }> = [];
      for (const order of orders) {
        const version = await apks.lockVersionForInstall(caller.orgId, order.versionId);
        if (!version) throw new Refusal('apk.versionNotFound', 'notFound');
        const payload: ApkPayload = {
          versionId: version.id,
          packageName: version.package_name,
          versionName: version.version_name,
          allowDowngrade: order.allowDowngrade,
          ...(order.labelIds.length ? { labelIds: order.labelIds } : {}),
        };
        const task = await rollouts.createTask(
          ...immediateTask({
            orgId: caller.orgId,
            kind: 'apk',
            payloadId: version.id,
            payload,
            payloadLabel: version.package_name.slice(0, 64),
            labelIds: order.labelIds,
            deviceIds: order.deviceIds,
            createdBy: caller.id,
            createdByName: caller.userName,
            now,
          }),
        );
        out.push({
          taskId: task.id,
          deviceCount: task.total,
          skippedCount: task.skipped,
          logged: { version, labelIds: order.labelIds },
        });
      }
      return out;
    });
    this.deps.engine.wake();
    for (const { logged, deviceCount } of created)
      await this.deps.log.recordBy(caller, ip, 'apk.install', {
        k: 'apkInstall',
        v: {
          package: logged.version.package_name,
          version: logged.version.version_name,
          target: logged.labelIds.length
            ? oplog.term('labels', { labels: await this.deps.labelNames(caller.orgId, logged.labelIds) })
            : oplog.term('panels'),
          count: oplog.counted('panel', deviceCount),
        },
      });
    return created.map(({ logged: _logged, ...rest }) => rest);
  }

  // ---- following installs ----

  private async ownTask(caller: SessionUser, id: number): Promise<TaskRecord> {
    const task = await this.deps.rollouts.findTask({ kind: 'own', orgId: caller.orgId }, id);
    if (!task || task.kind !== 'apk') throw new Refusal('apk.taskNotFound', 'notFound');
    return task;
  }

  private async toTask(task: TaskRecord): Promise<Task> {
    const payload = JSON.parse(task.payload) as ApkPayload;
    const counts = Object.fromEntries(TARGET_STATES.map((s) => [s, 0])) as Record<TargetState, number>;
    for (const c of await this.deps.rollouts.counts(task.id)) counts[c.state] += c.n;
    const open = OPEN_TASK_STATES.includes(task.state);
    return {
      apkTaskId: task.id,
      apkVersionId: task.payload_id,
      packageName: payload.packageName,
      versionName: payload.versionName,
      target: payload.labelIds?.length ? 'labels' : 'devices',
      operateMan: task.created_by_name,
      state: task.state,
      createDate: task.created_at,
      lastUpdateDate: task.updated_at,
      total: task.total,
      counts,
      canManage: open ? '1' : '0',
    };
  }

  async list(caller: SessionUser, p: { start: number; size: number; apkVersionId?: number }) {
    const { rows, total } = await this.deps.rollouts.taskPage(
      { kind: 'own', orgId: caller.orgId },
      'apk',
      pageOffset(p.start, p.size),
      p.size,
      undefined,
      p.apkVersionId,
    );
    const out: Task[] = [];
    for (const task of rows) out.push(await this.toTask(task));
    return { rows: out, total };
  }

  async one(caller: SessionUser, id: number) {
    return this.toTask(await this.ownTask(caller, id));
  }

  async devices(
    caller: SessionUser,
    p: { apkTaskId: number; start: number; size: number; state?: TargetState },
  ): Promise<{ rows: TaskDevice[]; total: number }> {
    const task = await this.ownTask(caller, p.apkTaskId);
    const payload = JSON.parse(task.payload) as ApkPayload;
    const { rows, total } = await this.deps.rollouts.targetPage(
      task.id,
      pageOffset(p.start, p.size),
      p.size,
      p.state,
    );
    const reported = await this.deps.apks.reportedVersions(
      caller.orgId,
      rows.map((r) => r.device_id),
      payload.packageName,
    );
    return {
      rows: rows.map((r) => ({
        deviceId: r.device_id,
        deviceName: r.name,
        deviceKey: r.device_key,
        isOnline: this.deps.isOnline(r.device_key) ? '1' : '0',
        versionCurrent: reported.get(r.device_id) ?? '',
        versionUpdate: payload.versionName,
        state: r.state as TargetState,
        reason: r.reason,
        progress:
          r.state === 'downloading' && r.apk_total
            ? Math.min(100, Math.floor(((r.apk_current ?? 0) * 100) / r.apk_total))
            : null,
        updatedAt: r.updated_at,
      })),
      total,
    };
  }

  async cancel(caller: SessionUser, ip: string, id: number) {
    const task = await this.ownTask(caller, id);
    const cancelled = await this.deps.engine.cancelTask(task);
    await this.deps.log.recordBy(caller, ip, 'apk.cancel', {
      k: 'taskCancelled',
      v: {
        task: id,
        what: oplog.term('task.apk', { name: task.payload_label }),
        count: oplog.counted('panel', cancelled),
      },
    });
    return cancelled;
  }
}
