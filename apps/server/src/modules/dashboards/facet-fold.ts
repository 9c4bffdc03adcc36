import { isWorthRetrying } from '../../db/errors.js';
import type { DashboardRepository } from './repository.js';

export interface FacetFoldLog {
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

/**
 * Keeps PostgreSQL's table of facet changes short (migration 032): once a period it folds what
 * the triggers appended into the per-company counts. The dashboards add the changes not yet
 * folded to what they read, so the figures are exact whenever this runs; it only bounds how many
 * changes a dashboard adds up. Every instance folds; two folds at once wait for each other.
 */
export class FacetFold {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly repository: Pick<DashboardRepository, 'foldFacetChangesAllCompanies'>,
    private readonly log: FacetFoldLog,
    private readonly everyMs = 1000,
  ) {}

  start() {
    const loop = () => {
      if (this.stopped) return;
      this.running = this.fold().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.timer = setTimeout(loop, this.everyMs).unref();
      });
    };
    this.timer = setTimeout(loop, this.everyMs).unref();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One fold (tests call it; the loop calls it every period). */
  async fold() {
    try {
      await this.repository.foldFacetChangesAllCompanies();
    } catch (err) {
      // The changes stay where they are and the dashboards still count them: the next fold takes them.
      if (isWorthRetrying(err)) this.log.warn({ err }, 'facet changes not folded now: tried again later');
      else this.log.error({ err }, 'facet changes not folded');
    }
  }
}
