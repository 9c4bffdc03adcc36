import type { CommandSide } from './kind.js';
import type { TaskRecord } from './repository.js';
import type { RolloutSettings } from './settings.js';
import type { RolloutTargets, StalledTarget } from './target-repository.js';

/** Stalled rows looked at per task and round (a cursor goes on from there in the next round). */
const BATCH = 500;

/**
 * No row waits forever (issue 23). A panel's row in a step that has not moved for `stallMs` is
 * asked for its state: its command goes out again, and a panel answers a repeated command id with
 * the acknowledgement it stored (protocol 5.6), so a final answer that was lost arrives again and
 * a download still running answers `received`, which starts the row's time again. A panel that
 * listens and leaves the question unanswered for `answerMs` fails `timedOut`, counted by the
 * task's failure share like any failure. A panel that is not connected is neither asked nor timed
 * out: it is asked once it is back (an operator would not have panels switched off for the night
 * pause a rollout), and its command's own life (24 h) still ends the row `expired`.
 *
 * It runs within the engine's round of a task, so only the instance that leases the task asks
 * and times out; each write also checks the row's state, so a round that overlaps an answer or a
 * lease taken over changes nothing twice.
 */
export class StallWatch {
  /** Per task, the last row looked at. */
  private readonly cursors = new Map<number, number>();

  constructor(
    private readonly deps: {
      targets: RolloutTargets;
      commands: Pick<CommandSide, 'isReady' | 'ask' | 'timeOut'>;
      settings: RolloutSettings;
    },
  ) {}

  /** Asks and times out the task's stalled rows; the number that timed out. */
  async check(task: TaskRecord, now: number): Promise<number> {
    const { targets, commands, settings } = this.deps;
    const movedBefore = now - settings.stallMs;
    const askedBefore = now - settings.answerMs;
    const rows = await targets.stalled(task.id, movedBefore, this.cursors.get(task.id) ?? 0, BATCH);
    this.cursors.set(task.id, rows.length < BATCH ? 0 : rows[rows.length - 1]!.targetId);
    const unasked: StalledTarget[] = [];
    const silent: number[] = [];
    const gone: number[] = [];
    for (const row of rows) {
      const listening = commands.isReady(row.deviceKey);
      if (row.askedAt === null) {
        if (listening) unasked.push(row);
      } else if (row.askedAt <= askedBefore) (listening ? silent : gone).push(row.targetId);
    }
    const asked = new Set(
      await targets.ask(
        unasked.map((r) => r.targetId),
        movedBefore,
        now,
      ),
    );
    // A row still `sent` has no answer yet: the command layer repeats its command until it has one.
    const again = unasked.filter((r) => asked.has(r.targetId) && r.state !== 'sent').map((r) => r.commandId);
    if (again.length) await commands.ask(again);
    await targets.unask(gone, askedBefore);
    const timedOut = await targets.timeOut(silent, askedBefore, now);
    if (timedOut.length) await commands.timeOut(timedOut);
    return timedOut.length;
  }
}
