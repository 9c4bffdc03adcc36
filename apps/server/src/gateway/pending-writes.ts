export interface PendingWritesOptions<R = never> {
  /** Errors after which a write is kept and tried again later (the database is away). */
  retryWhen: (err: unknown) => boolean;
  /** A write that failed for another reason, or the first failure of an outage. */
  onError: (err: unknown, what: string) => void;
  /** Writes dropped because more than `maxPending` were waiting. */
  onDrop: (count: number) => void;
  /** The receipts of the writes of one batch that succeeded, once they all have had their attempt. */
  onStored?: (receipts: R[]) => void;
  maxPending?: number;
  /** Writes run at once while the database answers. */
  concurrency?: number;
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
}

interface Write<R> {
  what: string;
  run: () => Promise<unknown>;
  /** What to confirm once the write succeeded (protocol 5.9: the panel sends it until confirmed). */
  receipt: R | undefined;
}

/**
 * Device reports that are written one by one (app lists, usage, logs, settings). While the
 * database answers they run a few at a time; when it is away they wait, in order and bounded,
 * and are written when it returns, so an outage loses none of them. A write may carry a receipt:
 * the receipts of a batch's successful writes are handed over together after the batch.
 */
export class PendingWrites<R = never> {
  private queue: Array<Write<R>> = [];
  private draining: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private retryDelay: number;
  private outage = false;
  private readonly maxPending: number;
  private readonly concurrency: number;

  constructor(private readonly options: PendingWritesOptions<R>) {
    this.maxPending = options.maxPending ?? 50_000;
    this.concurrency = options.concurrency ?? 8;
    this.retryDelay = options.retryDelayMs ?? 500;
  }

  get waiting() {
    return this.queue.length;
  }

  add(what: string, run: () => Promise<unknown>, receipt?: R) {
    this.queue.push({ what, run, receipt });
    this.trim();
    if (!this.timer) void this.drain();
  }

  /** Resolves when the writes queued so far have had their attempt. */
  async settled(): Promise<void> {
    await this.draining;
  }

  /** Stops waiting to retry (at shutdown); what is still queued is lost with the process. */
  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private trim() {
    const excess = this.queue.length - this.maxPending;
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    this.options.onDrop(excess);
  }

  private drain(): Promise<void> {
    this.draining ??= this.run().finally(() => (this.draining = undefined));
    return this.draining;
  }

  private async run() {
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.concurrency);
      const results = await Promise.allSettled(batch.map((w) => w.run()));
      const retry: Array<Write<R>> = [];
      const stored: R[] = [];
      results.forEach((result, i) => {
        const write = batch[i]!;
        if (result.status === 'fulfilled') {
          if (write.receipt !== undefined) stored.push(write.receipt);
          return;
        }
        if (!this.options.retryWhen(result.reason)) return this.options.onError(result.reason, write.what);
        if (!this.outage) this.options.onError(result.reason, write.what);
        retry.push(write);
      });
      if (stored.length) this.options.onStored?.(stored);
      if (retry.length) {
        this.outage = true;
        this.queue.unshift(...retry);
        this.trim();
        this.timer = setTimeout(() => {
          this.timer = undefined;
          void this.drain();
        }, this.retryDelay);
        this.timer.unref();
        this.retryDelay = Math.min(this.retryDelay * 2, this.options.maxRetryDelayMs ?? 5000);
        return;
      }
      this.outage = false;
      this.retryDelay = this.options.retryDelayMs ?? 500;
    }
  }
}
