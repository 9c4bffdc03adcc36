import type { Clock } from '../clock.js';
import type { PresenceLeaseRepository } from './presence-lease-repository.js';
import type { GatewayLog } from './transport.js';

/** Beats an instance may miss before another takes it for dead. */
export const LAPSE_BEATS = 3;

/**
 * Keeps `devices.online` true when an instance dies (issue 28 item 3). The embedded broker of an
 * instance holds its panels' connections, and it writes their presence with itself as holder
 * (`devices.online_by`). Every instance renews its presence lease every beat; each beat it also
 * looks for lapsed leases (an instance that has not beaten for LAPSE_BEATS beats: killed, frozen,
 * cut off from the database) and marks the panels that instance held offline
 * (presence-lease-repository.ts), once however many instances look. A panel is so counted offline
 * within LAPSE_BEATS + 1 beats of its instance's last beat. An instance that finds its own lease
 * gone (it was taken for dead, but lives) writes the panels it still holds online again.
 */
export class PresenceLeases {
  private timer: NodeJS.Timeout | undefined;
  private lastBeat: number | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly repository: PresenceLeaseRepository,
    readonly owner: string,
    private readonly clock: Clock,
    private readonly beatMs: number,
    private readonly log: GatewayLog,
    /** The panels this instance's embedded broker holds now (none behind an external broker). */
    private readonly held: () => string[],
  ) {}

  get lapseMs() {
    return this.beatMs * LAPSE_BEATS;
  }

  /** Takes the lease (before the gateway writes any presence with this instance as holder), then beats. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => this.tick(), this.beatMs);
    this.timer.unref();
  }

  /** One beat: renew (or take again) the lease, then end the lapsed ones of other instances. */
  async beat(): Promise<void> {
    const now = this.clock.now();
    if (!(await this.repository.renew(this.owner, now, now + this.lapseMs))) {
      await this.repository.enter(this.owner, now, now + this.lapseMs);
      if (this.lastBeat !== undefined) {
        const panels = await this.repository.reassert(this.owner, this.held(), now);
        this.log.warn(
          { instance: this.owner, panels },
          'this instance was taken for dead (its presence lease lapsed): the panels it holds are online again',
        );
      }
    }
    this.lastBeat = now;
    for (const { owner } of await this.repository.lapsed(now)) {
      if (owner === this.owner) continue;
      const panels = await this.repository.sweep(owner, now);
      if (panels !== undefined)
        this.log.warn(
          { instance: owner, panels },
          'an instance stopped renewing its presence lease: the panels it held are offline',
        );
    }
  }

  /** Stops beating; the panels still written as held here go offline and the lease ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    await this.repository.release(this.owner, this.lastBeat ?? this.clock.now());
  }

  private tick() {
    if (this.running || this.stopped) return;
    this.running = this.beat()
      .catch((err: unknown) => this.log.warn({ err }, 'presence lease beat failed: tried again next beat'))
      .finally(() => {
        this.running = undefined;
      });
  }
}
