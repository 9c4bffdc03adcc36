import type { live } from '@panelfleet/contract';

/**
 * The one publish/subscribe seam of the server. Modules publish what happened (a panel came or
 * went, a command settled, a task moved on, a session ended); subscribers (today the live
 * console's event streams) react. Every message is plain JSON and names the company it belongs
 * to, so a shared transport (PostgreSQL LISTEN/NOTIFY, a broker topic) can replace the
 * in-process bus below without touching publishers or subscribers: several server instances then
 * see each other's events.
 */
export type BusMessage =
  /** Something a company's consoles should see at once. */
  | {
      kind: 'live';
      orgId: number;
      event: live.LiveEvent;
      /**
       * Every instance publishes this one itself (presence: each reads it from the broker), so a
       * shared transport keeps it in its instance instead of handing each console two.
       */
      local?: true;
    }
  /**
   * Sessions ended (sign-out, expiry, password change, disabled user): their event streams close.
   * `sessionId` names one session (its hash); `userId` every session of a user but `exceptSessionId`.
   */
  | { kind: 'sessionEnded'; sessionId?: string; userId?: number; exceptSessionId?: string }
  /**
   * A panel's right to connect changed (re-enrolled with a new password, enabled, disabled,
   * removed): every instance drops the credentials it cached and checks the panel's connection.
   */
  | { kind: 'panelAccess'; deviceKey: string }
  /** A webhook was made, changed, disabled or deleted: every instance asks again who wants which events. */
  | { kind: 'webhooksChanged' }
  /**
   * This instance may have missed other instances' messages (its shared transport was cut and is
   * back): whatever it keeps on their word (cached panel credentials) must be read again. Never
   * shared: each instance publishes it to itself.
   */
  | { kind: 'eventsMissed' };

/** Messages that close access: a shared transport keeps trying to hand them on instead of dropping them. */
export function mustArrive(message: BusMessage): boolean {
  return message.kind === 'panelAccess' || message.kind === 'sessionEnded';
}

export type BusListener = (message: BusMessage) => void;

export interface EventBus {
  /** Hands the message to every subscriber (of every instance, with a shared transport). Never throws. */
  publish(message: BusMessage): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: BusListener): () => void;
}

export interface BusLog {
  error(obj: object, message: string): void;
}

/** The bus of one server process: delivers synchronously, in publish order. */
export class InProcessEventBus implements EventBus {
  private readonly listeners = new Set<BusListener>();
  /** Messages published so far (benchmarks and tests read it). */
  published = 0;

  constructor(private readonly log: BusLog) {}

  publish(message: BusMessage) {
    this.published++;
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch (err) {
        this.log.error({ err, kind: message.kind }, 'event subscriber failed');
      }
    }
  }

  subscribe(listener: BusListener) {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

/** What a task publishes as it runs (an OTA rollout, a label command): the live console shows it. */
export type TaskProgress = Omit<live.LiveEvent & { type: 'taskProgress' }, 'type' | 'at'>;

/**
 * The publish function a long-running task is handed at wiring time: progress of a task of
 * company `orgId`. The OTA rollouts publish through it.
 */
export type PublishTaskProgress = (orgId: number, progress: TaskProgress) => void;

export function taskProgressPublisher(bus: EventBus, now: () => number): PublishTaskProgress {
  return (orgId, progress) =>
    bus.publish({ kind: 'live', orgId, event: { type: 'taskProgress', ...progress, at: now() } });
}
