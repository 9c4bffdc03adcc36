import crypto from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { JobLeaseRepository } from './repository.js';

/**
 * Periodic jobs of several instances on one database (issue 18): before each run an instance
 * asks for the job's lease; the one that holds it runs the job and renews the lease each time,
 * the others skip; a holder that shuts down releases its leases, and when one dies another takes
 * over once its lease lapses.
 * A job that runs every `everyMs` is leased for two periods, so a slow run keeps its holder.
 */
export class JobLeases {
  /** This instance, as lease owner. */
  readonly owner = `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  private stopped = false;

  constructor(
    private readonly repository: JobLeaseRepository,
    private readonly clock: Clock,
  ) {}

  /** A check for a job run every `everyMs`: true when this instance runs it now. */
  runsHere(job: string, everyMs: number): () => Promise<boolean> {
    return async () => {
      if (this.stopped) return false;
      const now = this.clock.now();
      return this.repository.take(job, this.owner, now, now + 2 * everyMs);
    };
  }

  /** Takes no lease any more (the start of a shutdown). */
  stop() {
    this.stopped = true;
  }

  /** Stops and gives up the leases this instance holds, so another instance runs each job at once. */
  async release(): Promise<void> {
    this.stop();
    await this.repository.releaseAll(this.owner);
  }
}
