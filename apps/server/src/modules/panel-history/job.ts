import type { FastifyBaseLogger } from 'fastify';
import type { PanelHistoryService } from './service.js';

/** How often the history job folds and deletes. */
export const PANEL_HISTORY_JOB_MS = 15 * 60_000;

/**
 * The panels' history job: every PANEL_HISTORY_JOB_MS, on the instance holding its lease, the
 * raw rows past the raw window become hourly rows and what is past the retention goes.
 */
export class PanelHistoryJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly service: Pick<PanelHistoryService, 'maintain'>,
    private readonly runsHere: () => Promise<boolean>,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'info'>,
    private readonly everyMs = PANEL_HISTORY_JOB_MS,
  ) {}

  start() {
    const loop = () => {
      if (this.stopped) return;
      this.running = this.runOnce()
        .catch((err: unknown) => this.log.error({ err }, 'panel history roll-up failed'))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) {
            this.timer = setTimeout(loop, this.everyMs);
            this.timer.unref();
          }
        });
    };
    loop();
  }

  /** One run when this instance holds the lease; what it did, or null when another instance runs it. */
  async runOnce() {
    if (!(await this.runsHere())) return null;
    const done = await this.service.maintain();
    if (done.folded || done.deleted) this.log.info(done, 'panel history folded and trimmed');
    return done;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
