import { immediateTask } from '../rollouts/immediate-task.js';
import { device, oplog, programs } from '@panelfleet/contract';
import { reachOf, type MatchingDevices } from '../devices/matching-repository.js';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { StoredProgramValue } from '../downloads/program.js';
import { storedProgramValue } from '../downloads/program.js';
import { RegisterError, type RegisteredFile } from '../downloads/service.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { RolloutEngine } from '../rollouts/engine.js';
import type { RolloutRepository } from '../rollouts/repository.js';
import type { PublishRepository } from './publish-repository.js';
import { parseItems, type ProgramService } from './service.js';

const sortedIds = (ids: number[]) => [...ids].sort((a, b) => a - b).join(',');

/** A material's file as a panel fetches it. */
export interface PlayableFile {
  path: string;
  size: number;
  sha256: string;
  mediaType: string;
  /** The material's name as uploaded (display only). */
  name?: string;
}

/**
 * Publishing an approved program (spec 2: /program/packZip with programId and deviceIds; labels
 * too): the playlist with each file registered for signed download becomes the value of a
 * rollout task of kind `program`, a row per panel; the engine sends `PROGRAM` to each panel as
 * it listens and follows its acknowledgements.
 */
export class PublishService {
  constructor(
    private readonly deps: {
      programs: ProgramService;
      repository: PublishRepository;
      playable(orgId: number, materialId: number): Promise<PlayableFile>;
      register(file: { path: string; size: number; sha256: string }): Promise<RegisteredFile>;
      rollouts: { createTask: RolloutRepository['createTask']; wake(): void };
      engine: Pick<RolloutEngine, 'cancel' | 'cancelTask'>;
      log: OperationLog;
      clock: Clock;
      /** "All N matching": the panels a filter names, within the caller's reach. */
      matching: Pick<MatchingDevices, 'ids'>;
    },
  ) {}

  async publish(
    caller: SessionUser,
    ip: string,
    named: {
      programId: number;
      deviceIds: number[];
      tagIds: number[];
      matching?: device.PanelMatching | undefined;
    },
  ) {
    const { row } = await this.deps.programs.get(caller.orgId, named.programId);
    if (row.status !== 'approval2') throw new Refusal('program.notApproved', 'conflict');
    const kinds = [named.deviceIds.length > 0, named.tagIds.length > 0, !!named.matching];
    if (kinds.filter(Boolean).length !== 1) throw new Refusal('program.chooseDevice', 'invalid');
    // Every panel matching the filter, resolved here (never ids the browser held), as many as ids may name.
    const p = named.matching
      ? {
          ...named,
          deviceIds: await this.deps.matching.ids(
            reachOf(caller),
            named.matching,
            device.MATCHING_PANELS_MAX,
          ),
        }
      : named;
    const { repository } = this.deps;
    if (
      !named.matching &&
      p.deviceIds.length &&
      (await repository.ownedDeviceCount(caller.orgId, p.deviceIds)) !== p.deviceIds.length
    )
      throw new Refusal('device.notFound', 'notFound');
    if (p.tagIds.length && (await repository.ownedLabelCount(caller.orgId, p.tagIds)) !== p.tagIds.length)
      throw new Refusal('label.notFound', 'notFound');
    const value = await this.valueOf(
      caller.orgId,
      row.id,
      row.revision,
      row.name,
      row.play_time,
      parseItems(row),
    );
    const now = this.deps.clock.now();
    let created;
    try {
      const [task, waves] = immediateTask({
        orgId: caller.orgId,
        kind: 'program',
        payloadId: row.id,
        payload: { value },
        payloadLabel: row.name.slice(0, 64),
        labelIds: p.tagIds,
        deviceIds: p.deviceIds,
        createdBy: caller.id,
        createdByName: caller.userName,
        now,
      });
      const targets = p.deviceIds.length
        ? `devices:${sortedIds(p.deviceIds)}`
        : `labels:${sortedIds(p.tagIds)}`;
      created = await this.deps.rollouts.createTask(
        // The same revision to the same panels while it is being published: no second task.
        {
          ...task,
          sameAs: { key: `revision:${row.revision};${targets}`, refusal: 'program.samePublishOpen' },
        },
        waves,
      );
    } catch (error) {
      // Labels without panels make no task.
      if (error instanceof Refusal && error.key === 'ota.noDevices')
        throw new Refusal('program.noDevices', 'declined');
      throw error;
    }
    this.deps.rollouts.wake();
    await this.deps.log.recordBy(caller, ip, 'program.publish', {
      k: 'programPublish',
      v: { name: row.name, count: oplog.counted('panel', created.total), task: created.id },
    });
    return { taskId: created.id, deviceCount: created.total, skippedCount: created.skipped };
  }

  /** The command value: every media file registered (its size and SHA-256 checked again now). */
  private async valueOf(
    orgId: number,
    programId: number,
    revision: number,
    name: string,
    playTime: number,
    items: programs.ProgramItem[],
  ): Promise<StoredProgramValue> {
    const stored: StoredProgramValue['items'] = [];
    for (const item of items) {
      if (item.type === 'web') {
        stored.push(item);
        continue;
      }
      const file = await this.deps.playable(orgId, item.materialId).catch((error: unknown) => {
        if (error instanceof Refusal) throw new Refusal('program.materialNotFound', 'conflict');
        throw error;
      });
      const registered = await this.deps.register(file).catch((error: unknown) => {
        // The bytes on disk are no longer what was uploaded: nothing is sent.
        if (error instanceof RegisterError) throw new Refusal('program.materialDamaged', 'conflict');
        throw error;
      });
      stored.push({
        type: item.type,
        duration: item.duration,
        file: registered,
        mediaType: file.mediaType,
        ...(file.name ? { name: file.name.slice(0, 255) } : {}),
      });
    }
    return storedProgramValue.parse({ programId, revision, name, playTime, items: stored });
  }

  async tasks(orgId: number, programId: number): Promise<programs.PublishTask[]> {
    await this.deps.programs.get(orgId, programId);
    return (await this.deps.repository.tasks(orgId, programId)).map((task) => {
      const counts: Record<string, number> = {};
      for (const c of task.counts) {
        const state = programs.PUBLISH_STATES[c.state as keyof typeof programs.PUBLISH_STATES] ?? c.state;
        counts[state] = (counts[state] ?? 0) + c.n;
      }
      return {
        taskId: task.id,
        createTime: Number(task.created_at),
        creatorName: task.created_by_name,
        state: task.state,
        total: task.total,
        counts,
      };
    });
  }

  async targets(orgId: number, p: { taskId: number; start: number; size: number }) {
    if (!(await this.deps.repository.taskOf(orgId, p.taskId)))
      throw new Refusal('program.taskNotFound', 'notFound');
    const { rows, total } = await this.deps.repository.targets(
      orgId,
      p.taskId,
      pageOffset(p.start, p.size),
      p.size,
    );
    const list: programs.PublishTarget[] = rows.map((r) => {
      const state =
        r.state === 'succeeded' && r.reason === 'finished'
          ? 'finished'
          : programs.PUBLISH_STATES[r.state as keyof typeof programs.PUBLISH_STATES];
      return {
        deviceId: r.device_id,
        deviceName: r.name,
        deviceKey: r.device_key,
        state,
        percent: state === 'downloading' && r.percent !== null ? Number(r.percent) : null,
        reason: r.reason === 'finished' ? '' : r.reason,
        updateTime: Number(r.updated_at),
      };
    });
    return { list, total };
  }

  /**
   * Cancels a whole publish task: every panel not yet finished stops (a download in progress, a
   * ready or a playing panel is sent PROGRAM_STOP). Refused when nothing downloads or plays any more.
   */
  async cancel(caller: SessionUser, ip: string, taskId: number) {
    const task = await this.deps.repository.taskOf(caller.orgId, taskId);
    if (!task) throw new Refusal('program.taskNotFound', 'notFound');
    if (!(await this.deps.repository.runningCount(caller.orgId, taskId)))
      throw new Refusal('program.nothingToCancel', 'conflict');
    let cancelled: number;
    try {
      cancelled = await this.deps.engine.cancelTask(task);
    } catch (error) {
      // Cancelled before, or every panel already finished or failed.
      if (error instanceof Refusal && error.key === 'ota.taskFinished')
        throw new Refusal('program.nothingToCancel', 'conflict');
      throw error;
    }
    await this.deps.log.recordBy(caller, ip, 'program.cancel', {
      k: 'taskCancelled',
      v: {
        task: taskId,
        what: oplog.term('task.program', { name: task.payload_label }),
        count: oplog.counted('panel', cancelled),
      },
    });
    return cancelled;
  }

  /** Cancels one panel of a publish task: it stops downloading or playing. */
  async cancelDevice(caller: SessionUser, ip: string, taskId: number, deviceId: number) {
    const task = await this.deps.repository.taskOf(caller.orgId, taskId);
    if (!task) throw new Refusal('program.taskNotFound', 'notFound');
    const target = await this.deps.repository.targetOf(caller.orgId, taskId, deviceId);
    if (!target) throw new Refusal('device.notFound', 'notFound');
    // Finished, failed or cancelled meanwhile: the same condition holds in the update.
    if (!(await this.deps.engine.cancel(task, deviceId, 'operator')))
      throw new Refusal('program.cancelTooLate', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'program.cancel', {
      k: 'taskDeviceCancelled',
      v: {
        task: taskId,
        what: oplog.term('task.program', { name: task.payload_label }),
        device: target.device_key ? `${target.device_name} (${target.device_key})` : String(deviceId),
      },
    });
  }
}
