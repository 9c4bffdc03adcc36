import type { Foundation } from '../../foundation.js';
import type { DeviceGateway } from '../../gateway/gateway.js';
import type { CommandRepository } from '../commands/repository.js';
import type { CommandService } from '../commands/service.js';
import type { DeviceRepository } from '../devices/repository.js';
import { DEFAULT_ROLLOUT_SETTINGS, RolloutEngine, type RolloutSettings } from './engine.js';
import { RolloutRepository } from './repository.js';
import { RolloutTargets } from './target-repository.js';

export type { RolloutEngine, RolloutRepository, RolloutSettings };

/** The rollout engine (OTA, APK installs and program publishing are kinds of it). */
export function installRollouts(
  f: Foundation,
  needs: {
    commands: CommandService;
    commandRecords: CommandRepository;
    devices: DeviceRepository;
    gateway: DeviceGateway;
    settings?: Partial<RolloutSettings>;
  },
) {
  const { kysely, db, clock } = f;
  const { commands, commandRecords, gateway, devices } = needs;
  const rollouts = new RolloutRepository(kysely, db.dialect);
  const settings = { ...DEFAULT_ROLLOUT_SETTINGS, ...f.config.rollout, ...needs.settings };
  const engine = new RolloutEngine({
    repository: rollouts,
    targets: new RolloutTargets(kysely, db.dialect),
    clock,
    settings,
    logError: f.logError,
    // Task progress reaches open consoles through the live events.
    onProgress: (task, counts, finished) =>
      f.publishTaskProgress(task.org_id, {
        kind: task.kind,
        taskId: String(task.id),
        done: counts.succeeded + counts.skipped + counts.cancelled,
        failed: counts.failed,
        total: counts.total,
        finished,
      }),
    commands: {
      prepare: (orgId, userId, targets, order, value, ttlMs) =>
        commands.prepare(orgId, userId, targets, order, value, ttlMs),
      release: (rows, targets) => commands.release(rows, targets),
      insert: (rows, trx) => commandRecords.insertMany(rows, trx),
      cancel: (ids) => commandRecords.setStatusForPanels(ids, 'failed', 'cancelled', clock.now()),
      // Open again: the retry timer sends them until the panel answers.
      ask: (ids) => commandRecords.setStatusForPanels(ids, 'sent', '', clock.now()),
      timeOut: (ids) => commandRecords.setStatusForPanels(ids, 'failed', 'timedOut', clock.now()),
      create: (orgId, userId, targets, order, value, ttlMs) =>
        commands.create(orgId, userId, targets, order, value, ttlMs),
      isReady: (key) => gateway.isReady(key),
    },
  });
  engine.setDeviceKeys((_orgId, ids) => devices.keysByIdsForPanels(ids));
  // Before a panel is told its result is stored (protocol 5.9), the task's panel row holds it too.
  commands.addAckWriter(async (acks) => {
    for (const ack of acks) engine.acknowledge(ack);
    if (await engine.flushAcks()) engine.wake();
  });
  commands.onReady((known) => engine.deviceReady(known));
  /** The repository within a transaction (the APK installs create tasks in one). */
  const rolloutsIn = (trx: typeof kysely) => new RolloutRepository(trx, db.dialect);
  return { rollouts, rolloutsIn, engine, settings };
}
