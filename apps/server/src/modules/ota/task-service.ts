import { ALL_IN_ONE_WAVE } from '../rollouts/immediate-task.js';
import {
  dayBounds,
  OPEN_TASK_STATES,
  oplog,
  otaLogStatus,
  parseLocalDateTime,
  TARGET_STATES,
  TARGET_STATES_OF_LOG_STATUS,
  translate,
  type Language,
  type ota,
  type OtaLogStatus,
  type TargetState,
} from '@panelfleet/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import { customerScope } from '../customers/policy.js';
import type { LabelRepository } from '../labels/repository.js';
import type { OperationLog } from '../operation-log/repository.js';
import type { RolloutEngine } from '../rollouts/engine.js';
import type { RolloutRepository, StateCount, TaskRecord } from '../rollouts/repository.js';
import { tally } from '../rollouts/tally.js';
import type { SkipRule, WaveSizes } from '../rollouts/task-creation-repository.js';
import type { OtaFileService } from './file-service.js';
import type { OtaFileRepository } from './file-repository.js';
import { readPayload, type OtaPayload } from './ota-kind.js';

type Task = z.infer<typeof ota.otaTask>;
type ForceParams = z.output<typeof ota.forceUpdate.params>;

const OPERATORS = new Set(['2', '4']);

const sortedIds = (ids: number[]) => [...ids].sort((a, b) => a - b).join(',');

/** Force upgrade (a task per click), the task list and manage dialog, and the OTA log. */
export class OtaTaskService {
  constructor(
    private readonly deps: {
      rollouts: RolloutRepository;
      engine: RolloutEngine;
      files: OtaFileService;
      fileRecords: OtaFileRepository;
      labels: LabelRepository;
      isOnline: (deviceKey: string) => boolean;
      log: OperationLog;
      clock: Clock;
    },
  ) {}

  async forceUpdate(caller: SessionUser, ip: string, p: ForceParams) {
    const file = await this.deps.files.find(caller, p.otaFileId);
    if ((await this.deps.labels.ownedCount(caller.orgId, p.tagIds)) !== p.tagIds.length)
      throw new Refusal('upgrade.noLabel', 'notFound');
    const now = this.deps.clock.now();
    let fireAt = now;
    let fireBy: number | null = null;
    if (p.timeEnable === '1') {
      if (!p.upgradeTime) throw new Refusal('ota.upgradeTimeNull', 'invalid');
      const at = parseLocalDateTime(p.upgradeTime, p.utcOffset);
      if (at === undefined) throw new Refusal('ota.upgradeTimeInvalid', 'invalid');
      if (at <= now) throw new Refusal('ota.upgradeTimePast', 'invalid');
      fireAt = at;
      fireBy = at + this.deps.engine.settings.lateWindowMs;
    }
    const fit = await this.deps.fileRecords.fitNames(file.id);
    const skip: SkipRule[] = [
      { reason: 'disabled', disabled: true },
      { reason: 'machineType', column: 'machine_type', notIn: fit.machineTypes },
      ...(fit.fromVersions.length
        ? [{ reason: 'fromVersion', column: 'ota_version' as const, notIn: fit.fromVersions }]
        : []),
      { reason: 'upToDate', column: 'ota_version', equals: file.ota_version },
    ];
    let waves: WaveSizes | ((eligible: number) => WaveSizes) = { first: ALL_IN_ONE_WAVE, step: 1 };
    if (p.waveMode === 'count') waves = { first: p.firstWave!, step: p.waveStep ?? p.firstWave! };
    if (p.waveMode === 'percent') {
      // Shares of the panels that pass the skip rules, counted as the task is made.
      const first = p.firstWave!;
      const step = p.waveStep ?? first;
      waves = (eligible: number) => {
        const share = (pct: number) => Math.max(1, Math.ceil((eligible * pct) / 100));
        return { first: share(first), step: share(step) };
      };
    }
    const payload: OtaPayload = {
      fileId: file.id,
      fileName: file.file_name,
      version: file.ota_version,
      machineTypes: fit.machineTypes,
      allowDowngrade: p.allowDowngrade === '1',
    };
    const cap = this.deps.engine.settings.maxDownloads;
    const created = await this.deps.rollouts.createTask(
      {
        orgId: caller.orgId,
        kind: 'ota',
        payloadId: file.id,
        payload,
        payloadLabel: file.ota_version,
        labelIds: p.tagIds,
        keepAdding: p.keepAdding === '1',
        skip,
        timeEnable: p.timeEnable === '1',
        fireAt,
        fireBy,
        waves: { mode: p.waveMode },
        successShare: p.successShare,
        failureShare: p.failureShare,
        minResults: p.minResults,
        maxDownloads: p.maxDownloads !== undefined ? Math.min(p.maxDownloads, cap) : null,
        createdBy: caller.id,
        createdByName: caller.userName,
        now,
        // A double click or a retry of the same file to the same labels makes no second task.
        sameAs: { key: `labels:${sortedIds(p.tagIds)}`, refusal: 'ota.sameTaskOpen' },
      },
      waves,
    );
    await this.deps.log.recordBy(caller, ip, 'ota.forceUpdate', {
      k: p.timeEnable === '1' ? 'forceUpgradeAt' : 'forceUpgrade',
      v: {
        version: file.ota_version,
        file: file.file_name,
        labels: (await this.deps.labels.list(caller.orgId))
          .filter((l) => p.tagIds.includes(l.id))
          .map((l) => l.name),
        count: oplog.counted('panel', created.total),
        skipped: created.skipped,
        ...(p.timeEnable === '1' ? { time: p.upgradeTime! } : {}),
      },
    });
    this.deps.engine.wake();
    return {
      otaTaskId: created.id,
      deviceCount: created.total,
      skippedCount: created.skipped,
      waveCount: created.waveCount,
    };
  }

  private async findTask(caller: SessionUser, id: number): Promise<TaskRecord> {
    const task = await this.deps.rollouts.findTask(customerScope(caller), id);
    if (!task || task.kind !== 'ota') throw new Refusal('ota.taskNotFound', 'notFound');
    return task;
  }

  /** A task the caller steers: its own company's (types 2 and 4). */
  private async ownTask(caller: SessionUser, id: number) {
    const task = await this.deps.rollouts.findTask({ kind: 'own', orgId: caller.orgId }, id);
    if (!task || task.kind !== 'ota') throw new Refusal('ota.taskNotFound', 'notFound');
    return task;
  }

  private toTask(caller: SessionUser, language: Language, task: TaskRecord, counts: StateCount[]): Task {
    const payload = readPayload(task);
    const byState = Object.fromEntries(TARGET_STATES.map((s) => [s, 0])) as Record<TargetState, number>;
    for (const c of counts) byState[c.state] += c.n;
    const open = OPEN_TASK_STATES.includes(task.state);
    return {
      otaTaskId: task.id,
      otaFileId: task.payload_id,
      fileName: payload.fileName,
      otaVersion: payload.version,
      machineType: payload.machineTypes.join(','),
      operateMan: task.created_by_name,
      deviceUpgradeState: open ? '0' : '1',
      state: task.state,
      stateReason: task.state_reason
        ? translate(
            language,
            task.state_reason,
            JSON.parse(task.state_vars) as Record<string, string | number>,
          )
        : '',
      createDate: task.created_at,
      lastUpdateDate: task.updated_at,
      upgradeTime: task.fired_at ?? task.fire_at,
      timeEnable: task.time_enable === 1 ? '1' : '0',
      fireBy: task.fire_by,
      firedAt: task.fired_at,
      allowDowngrade: payload.allowDowngrade ? '1' : '0',
      keepAdding: task.keep_adding === 1 ? '1' : '0',
      maxDownloads: task.max_downloads,
      waveMode: task.wave_mode,
      successShare: task.success_share,
      failureShare: task.failure_share,
      minResults: task.min_results,
      currentWave: task.current_wave,
      waveCount: task.wave_count,
      total: task.total,
      counts: byState,
      canManage: OPERATORS.has(caller.userType) && task.org_id === caller.orgId && open ? '1' : '0',
    };
  }

  async list(
    caller: SessionUser,
    language: Language,
    p: { start: number; size: number; operateDate?: string; utcOffset?: number },
  ) {
    const range = p.operateDate ? dayBounds(p.operateDate, p.utcOffset ?? 0) : undefined;
    const { rows, total } = await this.deps.rollouts.taskPage(
      customerScope(caller),
      'ota',
      pageOffset(p.start, p.size),
      p.size,
      range,
    );
    const out: Task[] = [];
    for (const task of rows)
      out.push(this.toTask(caller, language, task, await this.deps.rollouts.counts(task.id)));
    return { rows: out, total };
  }

  async one(caller: SessionUser, language: Language, id: number) {
    const task = await this.findTask(caller, id);
    const counts = await this.deps.rollouts.counts(task.id);
    const waves = await this.deps.rollouts.waves(task.id);
    return {
      ...this.toTask(caller, language, task, counts),
      waves: waves.map((w) => {
        const inWave = counts.filter((c) => c.wave === w.wave);
        const byState = Object.fromEntries(TARGET_STATES.map((s) => [s, 0])) as Record<TargetState, number>;
        for (const c of inWave) byState[c.state] += c.n;
        const t = tally(inWave);
        return {
          wave: w.wave,
          size: w.size,
          state: (w.started_at === null ? 'pending' : t.open === 0 ? 'done' : 'running') as
            'pending' | 'running' | 'done',
          startedAt: w.started_at,
          counts: byState,
        };
      }),
    };
  }

  async devices(
    caller: SessionUser,
    p: { otaTaskId: number; start: number; size: number; state?: TargetState },
  ) {
    const task = await this.findTask(caller, p.otaTaskId);
    const version = readPayload(task).version;
    const { rows, total } = await this.deps.rollouts.targetPage(
      task.id,
      pageOffset(p.start, p.size),
      p.size,
      p.state,
    );
    return {
      rows: rows.map((r) => ({
        deviceId: r.device_id,
        deviceName: r.name,
        deviceKey: r.device_key,
        isOnline: (this.deps.isOnline(r.device_key) ? '1' : '0') as '1' | '0',
        otaVersionCurrent: r.from_version,
        otaVersionUpdate: version,
        deviceUpgraded: (r.state === 'succeeded' ? 1 : 0) as 0 | 1,
        state: r.state as TargetState,
        reason: r.reason,
        progress:
          r.state === 'downloading' && r.ota_total
            ? Math.min(100, Math.floor(((r.ota_current ?? 0) * 100) / r.ota_total))
            : null,
        wave: r.wave < 0 ? null : r.wave,
        notBefore: r.state === 'waiting' ? r.not_before : null,
        updatedAt: r.updated_at,
      })),
      total,
    };
  }

  async cancel(caller: SessionUser, ip: string, id: number) {
    const task = await this.ownTask(caller, id);
    const cancelled = await this.deps.engine.cancelTask(task);
    await this.deps.log.recordBy(caller, ip, 'ota.cancel', {
      k: 'taskCancelled',
      v: {
        task: id,
        what: oplog.term('task.ota', { version: task.payload_label }),
        count: oplog.counted('panel', cancelled),
      },
    });
    return cancelled;
  }

  async cancelDevice(caller: SessionUser, ip: string, id: number, deviceId: number) {
    const task = await this.ownTask(caller, id);
    if (!OPEN_TASK_STATES.includes(task.state)) throw new Refusal('ota.taskFinished', 'conflict');
    const target = await this.deps.rollouts.findTarget(task.id, deviceId);
    if (!target) throw new Refusal('device.notFound', 'notFound');
    if (!['queued', 'waiting', 'sent', 'downloading'].includes(target.state))
      throw new Refusal('ota.cancelTooLate', 'conflict');
    const n = await this.deps.engine.cancel(task, deviceId, 'operator');
    if (!n) throw new Refusal('ota.cancelTooLate', 'conflict');
    await this.deps.log.recordBy(caller, ip, 'ota.cancel', {
      k: 'taskDeviceCancelled',
      v: {
        task: id,
        what: oplog.term('task.ota', { version: task.payload_label }),
        device: target.device_key ? `${target.device_name} (${target.device_key})` : String(deviceId),
      },
    });
  }

  async pause(caller: SessionUser, ip: string, id: number) {
    const task = await this.ownTask(caller, id);
    await this.deps.engine.pause(task);
    await this.deps.log.recordBy(caller, ip, 'ota.pause', {
      k: 'task',
      v: { task: id, what: oplog.term('task.ota', { version: task.payload_label }) },
    });
  }

  async resume(caller: SessionUser, ip: string, id: number) {
    const task = await this.ownTask(caller, id);
    await this.deps.engine.resume(task);
    await this.deps.log.recordBy(caller, ip, 'ota.resume', {
      k: 'task',
      v: { task: id, what: oplog.term('task.ota', { version: task.payload_label }) },
    });
  }

  async log(
    caller: SessionUser,
    p: { start: number; size: number; deviceKey?: string; otaVersion?: string; status?: OtaLogStatus },
  ) {
    const { rows, total } = await this.deps.rollouts.resultPage(
      customerScope(caller),
      'ota',
      pageOffset(p.start, p.size),
      p.size,
      {
        deviceKey: p.deviceKey,
        version: p.otaVersion,
        states: p.status ? TARGET_STATES_OF_LOG_STATUS[p.status] : undefined,
      },
    );
    return {
      rows: rows.map((r) => ({
        id: r.id,
        otaTaskId: r.task_id,
        deviceKey: r.device_key,
        deviceName: r.name,
        machineType: r.machine_type,
        otaVersion: r.from_version,
        otaNewVersion: r.payload_label,
        status: otaLogStatus(r.state as TargetState),
        state: r.state as TargetState,
        reason: r.reason,
        creationDate: r.created_at,
        updateDate: r.updated_at,
      })),
      total,
    };
  }
}
