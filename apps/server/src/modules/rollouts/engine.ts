import crypto from 'node:crypto';
import { device, FINAL_TARGET_STATES, type TargetState } from '@panelfleet/contract';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { KnownDevice } from '../../gateway/device-directory.js';
import { Refusal } from '../../refusal.js';
import type { CommandRecord } from '../commands/repository.js';
import type { Candidate, RolloutRepository, StateCount, TaskRecord } from './repository.js';

/** What the engine decides for a panel at dispatch (a policy's answer). */
export type Decision = { go: true } | { skip: string } | { waitUntil: number };

/**
 * One kind of payload (OTA firmware now; APK installs and program publishing later): what
 * command carries it, and the kind's own rules at dispatch. Everything else (waves, slots,
 * timers, leases, cancel) is the engine's.
 */
export interface RolloutKind {
  kind: string;
  order: device.Order;
  /** The order that stops a running command of this kind (the command id as value). */
  cancelOrder?: device.Order;
  /**
   * A command of this kind keeps running after it succeeded (a program plays until its play time
   * is over): cancelling reaches panels verifying, installing (ready) and succeeded until they
   * report `finished`, and a task that completed can still be cancelled while any plays.
   */
  runsOn?: boolean;
  /** How long a dispatched command lives. */
  ttlMs: number;
  /** The stored command value of a task (the same for all its panels). */
  commandValue(task: TaskRecord): Promise<unknown>;
  /** Policies at dispatch: go, skip (reason) or wait until a time, per candidate target id. */
  admit(task: TaskRecord, candidates: Candidate[], now: number): Promise<Map<number, Decision>>;
  /**
   * Values that differ by panel (an OTA reminder in the panel's language), by device id; a panel
   * missing from the map gets the task's value.
   */
  valuesFor?(task: TaskRecord, chosen: Candidate[], value: unknown): Promise<Map<number, unknown>>;
}

export interface RolloutSettings {
  /** Panels downloading at once across the server. */
  maxDownloads: number;
  /** Panels of a wave start spread over this window. */
  jitterMs: number;
  /** A timed task still fires this long after its time (after a server outage); later it is missed. */
  lateWindowMs: number;
  /** How often the engine works when nothing wakes it. */
  tickMs: number;
  /** How long a task stays with the instance that leased it without renewing. */
  leaseMs: number;
  /** A panel sent or downloading and not seen for this long frees its download slot. */
  stallMs: number;
}

export const DEFAULT_ROLLOUT_SETTINGS: RolloutSettings = {
  maxDownloads: 100,
  jitterMs: 30_000,
  lateWindowMs: 24 * 60 * 60_000,
  tickMs: 1000,
  leaseMs: 30_000,
  stallMs: 5 * 60_000,
};

export interface CommandSide {
  prepare(
    orgId: number,
    userId: number | null,
    targets: Array<{ id: number; deviceKey: string }>,
    order: device.Order,
    value: unknown,
    ttlMs?: number,
  ): CommandRecord[];
  release(rows: CommandRecord[], targets: Array<{ id: number; deviceKey: string }>): void;
  insert(rows: CommandRecord[], trx: Kysely<Database>): Promise<void>;
  /** Ends commands that are still open (a cancelled download). */
  cancel(ids: string[]): Promise<void>;
  create(
    orgId: number,
    userId: number | null,
    targets: Array<{ id: number; deviceKey: string }>,
    order: device.Order,
    value: unknown,
    ttlMs?: number,
  ): Promise<string[]>;
  isReady(deviceKey: string): boolean;
}

interface AckItem {
  commandId: string;
  state: TargetState;
  reason: string;
}

const FAIL_DETAILS = new Set([
  'download',
  'checksum',
  'signature',
  'model',
  'fromVersion',
  'downgrade',
  'install',
  'expired',
  'unsupported',
]);

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
  private acks: AckItem[] = [];
  private ackTimer: NodeJS.Timeout | undefined;
  private readonly cursors = new Map<number, number>();

  constructor(
    private readonly deps: {
      repository: RolloutRepository;
      commands: CommandSide;
      clock: Clock;
      settings: RolloutSettings;
      logError: (err: unknown, message: string) => void;
      /** Told when a task's panel counts changed (the live console shows task progress). */
      onProgress?: (task: TaskRecord, counts: ReturnType<typeof tally>, finished: boolean) => void;
    },
  ) {}

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
    if (this.ackTimer) clearTimeout(this.ackTimer);
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
    await repository.reconcile(task.id, now);
    const counts = await repository.counts(task.id);
    if (counts.every((c) => FINAL_TARGET_STATES.includes(c.state))) {
      await repository.setState(task.id, ['running', 'paused'], 'completed', '', {}, now);
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
    await this.dispatch(task, current, now);
  }

  /** Starts as many panels as download slots allow, in order, on panels that listen now. */
  private async dispatch(task: TaskRecord, maxWave: number, now: number) {
    const { repository, settings, commands } = this.deps;
    const kind = this.kinds.get(task.kind);
    if (!kind) return;
    const seenSince = now - settings.stallMs;
    let free = settings.maxDownloads - (await repository.inFlight(seenSince));
    if (task.max_downloads !== null)
      free = Math.min(free, task.max_downloads - (await repository.inFlight(seenSince, task.id)));
    if (free <= 0) return;
    const value = await kind.commandValue(task);
    let after = this.cursors.get(task.id) ?? 0;
    let scanned = 0;
    while (free > 0 && scanned < 5000) {
      const candidates = await repository.candidates(
        task.id,
        maxWave,
        now,
        Math.max(50, Math.min(500, free * 4)),
        after,
      );
      if (!candidates.length) {
        // The end of the list: the next round starts from the first panel again.
        after = 0;
        break;
      }
      scanned += candidates.length;
      after = candidates[candidates.length - 1]!.targetId;
      const listening = candidates.filter((c) => commands.isReady(c.deviceKey));
      if (!listening.length) continue;
      const decisions = await kind.admit(task, listening, now);
      const skips = new Map<string, number[]>();
      const waits: Array<{ id: number; until: number }> = [];
      const go: Candidate[] = [];
      for (const c of listening) {
        const d = decisions.get(c.targetId) ?? { go: true };
        if ('skip' in d) skips.set(d.skip, [...(skips.get(d.skip) ?? []), c.targetId]);
        else if ('waitUntil' in d) {
          if (c.state !== 'waiting' || c.notBefore !== d.waitUntil)
            waits.push({ id: c.targetId, until: d.waitUntil });
        } else go.push(c);
      }
      for (const [reason, ids] of skips) await repository.skip(ids, reason, now);
      await repository.wait(waits, now);
      const chosen = go.slice(0, free);
      if (chosen.length) {
        const targets = chosen.map((c) => ({ id: c.deviceId, deviceKey: c.deviceKey }));
        const perPanel = kind.valuesFor ? await kind.valuesFor(task, chosen, value) : undefined;
        const rows = perPanel
          ? targets.flatMap((t) =>
              commands.prepare(
                task.org_id,
                task.created_by,
                [t],
                kind.order,
                perPanel.get(t.id) ?? value,
                kind.ttlMs,
              ),
            )
          : commands.prepare(task.org_id, task.created_by, targets, kind.order, value, kind.ttlMs);
        const wanted = chosen.map((c, i) => ({
          targetId: c.targetId,
          commandId: rows[i]!.id,
          row: rows[i]!,
          target: targets[i]!,
        }));
        const claimed = await repository.claim(wanted, now, (list, trx) =>
          commands.insert(
            list.map((w) => w.row),
            trx,
          ),
        );
        free -= claimed.length;
        commands.release(
          claimed.map((w) => w.row),
          claimed.map((w) => w.target),
        );
        if (claimed.length < chosen.length) after = 0;
      }
    }
    this.cursors.set(task.id, after);
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
      void this.deps.repository
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
    let item: AckItem | undefined;
    if (ack.result === 'received') {
      const phase = ack.phase ?? 'downloading';
      item = { commandId: ack.id, state: phase, reason: '' };
    } else if (ack.result === 'succeeded')
      // A program's second `succeeded` (protocol 6.5): its play time is over.
      item = { commandId: ack.id, state: 'succeeded', reason: ack.detail === 'finished' ? 'finished' : '' };
    else {
      const detail = ack.detail ?? '';
      item = { commandId: ack.id, state: 'failed', reason: FAIL_DETAILS.has(detail) ? detail : 'install' };
    }
    this.acks.push(item);
    this.ackTimer ??= setTimeout(() => {
      this.ackTimer = undefined;
      void this.flushAcks()
        .then((finals) => {
          if (finals) this.wake();
        })
        .catch((err: unknown) => this.deps.logError(err, 'rollout acknowledgements not stored'));
    }, 50);
  }

  /** Writes the pending acknowledgements; the number of panels that reached a final state. */
  async flushAcks(): Promise<number> {
    const items = this.acks;
    this.acks = [];
    if (!items.length) return 0;
    const now = this.deps.clock.now();
    const groups = new Map<string, { state: TargetState; reason: string; ids: string[] }>();
    // In order of arrival per command: a later step of the same command replaces an earlier one.
    const latest = new Map<string, AckItem>();
    for (const item of items) latest.set(item.commandId, item);
    for (const item of latest.values()) {
      const key = `${item.state}:${item.reason}`;
      const group = groups.get(key) ?? { state: item.state, reason: item.reason, ids: [] };
      group.ids.push(item.commandId);
      groups.set(key, group);
    }
    let finals = 0;
    for (const state of ['downloading', 'verifying', 'installing', 'succeeded', 'failed'] as TargetState[])
      for (const group of groups.values())
        if (group.state === state) {
          if (group.reason === 'finished') {
            await this.deps.repository.finish(group.ids, now);
            continue;
          }
          const changed = await this.deps.repository.progress(group.ids, group.state, group.reason, now);
          if (state === 'succeeded' || state === 'failed') finals += changed;
        }
    return finals;
  }

  /**
   * Cancels panels of a task (all, or one device): rows not yet verifying end `cancelled`, their
   * commands end, and a panel that is downloading is told to stop.
   */
  async cancel(task: TaskRecord, deviceId: number | undefined, reason: string): Promise<number> {
    const { repository, commands, clock } = this.deps;
    const kind = this.kinds.get(task.kind);
    const rows = await repository.cancelTargets(
      task.id,
      deviceId,
      reason,
      clock.now(),
      kind?.runsOn ?? false,
    );
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
  /** How the engine finds device keys (wired by the composition root). */
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

/** Panels of one wave by state. */
export function tally(counts: StateCount[]) {
  const by = (state: TargetState) => counts.filter((c) => c.state === state).reduce((n, c) => n + c.n, 0);
  const total = counts.reduce((n, c) => n + c.n, 0);
  const finals = FINAL_TARGET_STATES.reduce((n, s) => n + by(s), 0);
  return {
    total,
    succeeded: by('succeeded'),
    failed: by('failed'),
    skipped: by('skipped'),
    cancelled: by('cancelled'),
    open: total - finals,
  };
}
