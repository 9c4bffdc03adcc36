import crypto from 'node:crypto';
import { device, FINAL_TARGET_STATES } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { KnownDevice } from '../../gateway/device-directory.js';
import { Refusal } from '../../refusal.js';
import { AcknowledgementBatch } from './acknowledgements.js';
import { Dispatcher } from './dispatch.js';
import type { CommandSide, RolloutKind } from './kind.js';
import type { RolloutRepository, StateCount, TaskRecord } from './repository.js';
import type { RolloutSettings } from './settings.js';
import { StallWatch } from './stall-watch.js';
import { tally } from './tally.js';
import type { RolloutTargets } from './target-repository.js';

export { DEFAULT_ROLLOUT_SETTINGS, type RolloutSettings } from './settings.js';

/**
 * The rollout engine. The database is the only truth for tasks and their timers: every instance
 * leases the tasks it works (rollout_tasks.lease_owner/lease_until, claimed with FOR UPDATE SKIP
 * LOCKED on PostgreSQL), fires a timed task by the one transition from `scheduled` that can
 * succeed once, claims panels for dispatch inside the transaction that records their commands,
 * and its timer is only a wake-up. Several instances can share the work without firing anything
 * twice.
 */
export class RolloutEngine {
  readonly instance = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private readonly kinds = new Map<string, RolloutKind>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly acks: AcknowledgementBatch;
  private readonly dispatcher: Dispatcher;
  private readonly stalls: StallWatch;

  constructor(
    private readonly deps: {
      repository: RolloutRepository;
      targets: RolloutTargets;
      commands: CommandSide;
      clock: Clock;
      settings: RolloutSettings;
      logError: (err: unknown, message: string) => void;
      /** Told when a task's panel counts changed (the live console shows task progress). */
      onProgress?: (task: TaskRecord, counts: ReturnType<typeof tally>, finished: boolean) => void;
    },
  ) {
    this.acks = new AcknowledgementBatch({ ...deps, onFinals: () => this.wake() });
    this.dispatcher = new Dispatcher(deps);
    this.stalls = new StallWatch(deps);
  }

  /** When each keep-adding task last looked for panels that started to match. */
  private readonly keptAt = new Map<number, number>();

  /** The counts last told per task, so that a round without change tells nothing. */
  private readonly toldProgress = new Map<number, string>();

  private tellProgress(task: TaskRecord, counts: StateCount[], finished: boolean) {
    if (!this.deps.onProgress) return;
    const all = tally(counts);
    const key = `${all.succeeded}/${all.failed}/${all.skipped}/${all.cancelled}/${all.total}/${finished}`;
    if (this.toldProgress.get(task.id) === key) return;
    this.toldProgress.set(task.id, key);
    if (finished) this.toldProgress.delete(task.id);
    this.deps.onProgress(task, all, finished);
  }

  get settings() {
    return this.deps.settings;
  }

  register(kind: RolloutKind) {
    this.kinds.set(kind.kind, kind);
  }

  start() {
    this.stopped = false;
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.acks.stop();
    if (this.readyTimer) clearTimeout(this.readyTimer);
    await this.running;
    await this.flushAcks();
    await this.deps.repository.releaseLeases(this.instance);
  }

  /** Works as soon as possible (a task was made, a panel came online, a slot was freed). */
  wake() {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  /** One round of work; tests call it to step the engine. */
  tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.work()
      .catch((err: unknown) => this.deps.logError(err, 'rollout round failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.schedule(50);
        } else this.schedule(this.deps.settings.tickMs);
      });
    return this.running;
  }

  private async work() {
    await this.flushAcks();
    const now = this.deps.clock.now();
    const tasks = await this.deps.repository.leaseTasks(this.instance, now, this.deps.settings.leaseMs);
    for (const task of tasks) {
      if (this.stopped) return;
      try {
        await this.workTask(task);
      } catch (err) {
        this.deps.logError(err, `rollout task ${task.id} round failed`);
      }
    }
  }

  private async workTask(task: TaskRecord) {
    const { repository, clock, settings } = this.deps;
    const now = clock.now();
    if (task.state === 'scheduled') {
      if (task.fire_by !== null && now > task.fire_by) {
        await repository.miss(task.id, now);
        return;
      }
      if (!(await repository.fire(task.id, now, settings.jitterMs))) return;
      task = { ...task, state: 'running', fired_at: now };
    }
    await this.deps.targets.reconcile(task.id, now);
    await this.stalls.check(task, now);
    // Keep adding: within the task's lease, so one instance looks, at most every keepAddingMs.
    if (task.keep_adding === 1 && task.state === 'running') {
      const last = this.keptAt.get(task.id);
      if (last === undefined || now - last >= settings.keepAddingMs) {
        this.keptAt.set(task.id, now);
        await repository.addMatching(task, now);
      }
    }
    const counts = await repository.counts(task.id);
    if (counts.every((c) => FINAL_TARGET_STATES.includes(c.state))) {
      await repository.setState(task.id, ['running', 'paused'], 'completed', '', {}, now);
      this.keptAt.delete(task.id);
      this.tellProgress(task, counts, true);
      return;
    }
    this.tellProgress(task, counts, false);
    if (task.state !== 'running') return;
    const wave = task.current_wave;
    const inWave = tally(counts.filter((c) => c.wave === wave));
    const results = inWave.succeeded + inWave.failed;
    // After an automatic pause on the last wave, the operator accepted its failures.
    const accepted = (JSON.parse(task.state_vars) as { acceptedWave?: number }).acceptedWave === wave;
    if (!accepted && results >= task.min_results && inWave.failed * 100 > task.failure_share * results) {
      await repository.setState(
        task.id,
        ['running'],
        'paused',
        'ota.pause.failureShare',
        {
          failed: inWave.failed,
          results,
          wave: wave + 1,
          share: Math.round((inWave.failed * 100) / results),
          limit: task.failure_share,
        },
        now,
      );
      return;
    }
    const eligible = inWave.total - inWave.skipped - inWave.cancelled;
    const needed = Math.ceil((task.success_share * eligible) / 100);
    let current = wave;
    if (wave + 1 < task.wave_count) {
      if (inWave.succeeded >= needed) {
        if (await repository.advance(task.id, wave, now, settings.jitterMs)) current = wave + 1;
      } else if (inWave.open === 0) {
        await repository.setState(
          task.id,
          ['running'],
          'paused',
          'ota.pause.successShare',
          {
            wave: wave + 1,
            share: eligible ? Math.round((inWave.succeeded * 100) / eligible) : 0,
            limit: task.success_share,
          },
          now,
        );
        return;
      }
    }
    const kind = this.kinds.get(task.kind);
    if (kind) await this.dispatcher.dispatch(task, kind, current, now);
  }

  private readyIds = new Set<number>();
  private readyTimer: NodeJS.Timeout | undefined;

  /**
   * A panel that starts listening may take a waiting slot at once. Panels come back in crowds
   * (a restart, a broker's return): they are collected for 100 ms and looked up with one query.
   */
  deviceReady(known: KnownDevice) {
    this.readyIds.add(known.id);
    this.readyTimer ??= setTimeout(() => {
      this.readyTimer = undefined;
      const ids = [...this.readyIds];
      this.readyIds.clear();
      void this.deps.targets
        .anyOpenTargetOf(ids)
        .then((found) => {
          if (found) this.wake();
        })
        .catch((err: unknown) => this.deps.logError(err, 'rollout wake-up failed'));
    }, 100);
    this.readyTimer.unref();
  }

  /** Acknowledgements move panels through their steps, in batches. */
  acknowledge(ack: device.CommandAck) {
    this.acks.add(ack);
  }

  /** Writes the pending acknowledgements; the number of panels that reached a final state. */
  flushAcks(): Promise<number> {
    return this.acks.flush();
  }

  /**
   * Cancels panels of a task (all, or one device): rows not yet verifying end `cancelled`, their
   * commands end, and a panel that is downloading is told to stop.
   */
  async cancel(task: TaskRecord, deviceId: number | undefined, reason: string): Promise<number> {
    const { targets, commands, clock } = this.deps;
    const kind = this.kinds.get(task.kind);
    const rows = await targets.cancelTargets(task.id, deviceId, reason, clock.now(), kind?.runsOn ?? false);
    const sent = rows.filter((r) => r.command_id !== null);
    if (sent.length) {
      await commands.cancel(sent.map((r) => r.command_id!));
      if (kind?.cancelOrder) {
        const keys = await this.deviceKeys(
          task,
          sent.map((r) => r.device_id),
        );
        for (const r of sent) {
          const key = keys.get(r.device_id);
          if (key)
            await commands.create(
              task.org_id,
              task.created_by,
              [{ id: r.device_id, deviceKey: key }],
              kind.cancelOrder,
              {
                id: r.command_id,
              },
            );
        }
      }
    }
    this.wake();
    return rows.length;
  }

  private keysOf: ((orgId: number, deviceIds: number[]) => Promise<Map<number, string>>) | undefined;
  /** How the engine finds device keys (wired by the rollouts entry, index.ts). */
  setDeviceKeys(lookup: (orgId: number, deviceIds: number[]) => Promise<Map<number, string>>) {
    this.keysOf = lookup;
  }
  private deviceKeys(task: TaskRecord, ids: number[]) {
    if (!this.keysOf) throw new Error('rollout engine has no device key lookup');
    return this.keysOf(task.org_id, ids);
  }

  async cancelTask(task: TaskRecord): Promise<number> {
    const now = this.deps.clock.now();
    const runsOn = this.kinds.get(task.kind)?.runsOn ?? false;
    if (
      !(await this.deps.repository.setState(
        task.id,
        runsOn ? ['scheduled', 'running', 'paused', 'completed'] : ['scheduled', 'running', 'paused'],
        'cancelled',
        '',
        {},
        now,
      ))
    )
      throw new Refusal('ota.taskFinished', 'conflict');
    return this.cancel(task, undefined, 'taskCancelled');
  }

  async pause(task: TaskRecord) {
    if (
      !(await this.deps.repository.setState(
        task.id,
        ['running'],
        'paused',
        'ota.pause.operator',
        {},
        this.deps.clock.now(),
      ))
    )
      throw new Refusal(
        task.state === 'paused' || task.state === 'scheduled' ? 'ota.notRunning' : 'ota.taskFinished',
        'conflict',
      );
  }

  /** Resumes; after an automatic pause the operator accepts the wave and the next one starts. */
  async resume(task: TaskRecord) {
    const now = this.deps.clock.now();
    if (task.state !== 'paused')
      throw new Refusal(
        task.state === 'running' || task.state === 'scheduled' ? 'ota.notPaused' : 'ota.taskFinished',
        'conflict',
      );
    const automatic =
      task.state_reason === 'ota.pause.failureShare' || task.state_reason === 'ota.pause.successShare';
    const vars: Record<string, number> = automatic ? { acceptedWave: task.current_wave } : {};
    if (!(await this.deps.repository.setState(task.id, ['paused'], 'running', '', vars, now)))
      throw new Refusal('ota.notPaused', 'conflict');
    if (automatic)
      await this.deps.repository.advance(task.id, task.current_wave, now, this.deps.settings.jitterMs);
    this.wake();
  }
}
