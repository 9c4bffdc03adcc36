import type { RolloutKind, CommandSide } from './kind.js';
import type { TaskRecord } from './repository.js';
import type { RolloutSettings } from './settings.js';
import type { Candidate, RolloutTargets } from './target-repository.js';

/**
 * Dispatch of a task's panels: free download slots, the next rows in order on panels that listen
 * now, the kind's decision, and the commands claimed and recorded in one transaction.
 */
export class Dispatcher {
  /** Per task, the last row tried, so that a round goes on where the one before stopped. */
  private readonly cursors = new Map<number, number>();

  constructor(
    private readonly deps: {
      targets: RolloutTargets;
      commands: CommandSide;
      settings: RolloutSettings;
    },
  ) {}

  /** Starts as many panels as download slots allow, in order, on panels that listen now. */
  async dispatch(task: TaskRecord, kind: RolloutKind, maxWave: number, now: number) {
    const { targets: rolloutTargets, settings, commands } = this.deps;
    const seenSince = now - settings.slotQuietMs;
    let free = settings.maxDownloads - (await rolloutTargets.inFlight(seenSince));
    if (task.max_downloads !== null)
      free = Math.min(free, task.max_downloads - (await rolloutTargets.inFlight(seenSince, task.id)));
    if (free <= 0) return;
    const value = await kind.commandValue(task);
    let after = this.cursors.get(task.id) ?? 0;
    let scanned = 0;
    while (free > 0 && scanned < 5000) {
      const candidates = await rolloutTargets.candidates(
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
      for (const [reason, ids] of skips) await rolloutTargets.skip(ids, reason, now);
      await rolloutTargets.wait(waits, now);
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
        const claimed = await rolloutTargets.claim(wanted, now, (list, trx) =>
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
}
