import type { device, TargetState } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { RolloutTargets } from './target-repository.js';

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

/** Panels' acknowledgements move their rows through their steps, written in batches. */
export class AcknowledgementBatch {
  private acks: AckItem[] = [];
  private ackTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      targets: Pick<RolloutTargets, 'progress' | 'finish' | 'heard'>;
      clock: Clock;
      logError: (err: unknown, message: string) => void;
      /** Told when panels reached a final state (their download slots are free). */
      onFinals: () => void;
    },
  ) {}

  add(ack: device.CommandAck) {
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
      void this.flush()
        .then((finals) => {
          if (finals) this.deps.onFinals();
        })
        .catch((err: unknown) => this.deps.logError(err, 'rollout acknowledgements not stored'));
    }, 50);
  }

  stop() {
    if (this.ackTimer) clearTimeout(this.ackTimer);
  }

  /** Writes the pending acknowledgements; the number of panels that reached a final state. */
  async flush(): Promise<number> {
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
            await this.deps.targets.finish(group.ids, now);
            continue;
          }
          const changed = await this.deps.targets.progress(group.ids, group.state, group.reason, now);
          if (state === 'succeeded' || state === 'failed') finals += changed;
        }
    // A step the row already had answers a question too (a download still running): heard. Final
    // results moved their rows above (and most acknowledgements, a label command's, are final).
    const steps = [...latest.values()].filter(
      (item) => item.state !== 'succeeded' && item.state !== 'failed',
    );
    if (steps.length)
      await this.deps.targets.heard(
        steps.map((item) => item.commandId),
        now,
      );
    return finals;
  }
}
