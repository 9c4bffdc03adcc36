export interface BatchWriterOptions {
  /** Flush at most this often (ms). */
  intervalMs?: number;
  /** Flush at once when this many items wait. */
  maxItems?: number;
  /**
   * Errors for which a batch is kept and tried again later (the database is away) instead of
   * being dropped. Default: none.
   */
  retryWhen?: (err: unknown) => boolean;
  /** Most items kept while retrying; beyond it the oldest are dropped (and reported). */
  maxPending?: number;
  /** First wait before a retry; it doubles up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
}

/**
 * Collects items and hands them to `flush` in batches: every `intervalMs`, or at once when
 * `maxItems` are waiting. One flush runs at a time. A batch that fails for a reason `retryWhen`
 * accepts goes back to the front of the queue and is tried again with a growing delay, keeping at
 * most `maxPending` items; any other failure is reported and its items dropped (device reports are
 * periodic, the next one repairs the row).
 */
export class BatchWriter<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private retryDelay: number;
  private retrying = false;
  private readonly options: Required<BatchWriterOptions>;

  constructor(
    private readonly flushBatch: (items: T[]) => Promise<void>,
    private readonly onError: (err: unknown, count: number) => void,
    options: BatchWriterOptions = {},
    private readonly onDrop: (count: number) => void = () => undefined,
  ) {
    this.options = {
      intervalMs: 200,
      maxItems: 2000,
      retryWhen: () => false,
      maxPending: 100_000,
      retryDelayMs: 500,
      maxRetryDelayMs: 5000,
      ...options,
    };
    this.retryDelay = this.options.retryDelayMs;
  }

  /** Items waiting to be written (also those kept for a retry). */
  get waiting() {
    return this.pending.length;
  }

  add(item: T) {
    this.pending.push(item);
    this.trim();
    if (this.retrying) return; // the retry timer flushes everything when it fires
    if (this.pending.length >= this.options.maxItems) void this.flush();
    else this.schedule(this.options.intervalMs);
  }

  /** Tries to write everything added so far; resolves when that attempt is over. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.running = this.running.then(async () => {
      if (!batch.length) return;
      try {
        await this.flushBatch(batch);
        this.retrying = false;
        this.retryDelay = this.options.retryDelayMs;
      } catch (err) {
        if (!this.options.retryWhen(err)) return this.onError(err, batch.length);
        if (!this.retrying) this.onError(err, batch.length);
        this.retrying = true;
        this.pending = batch.concat(this.pending);
        this.trim();
        this.schedule(this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, this.options.maxRetryDelayMs);
      }
    });
    return this.running;
  }

  private schedule(delayMs: number) {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), delayMs);
    this.timer.unref();
  }

  private trim() {
    const excess = this.pending.length - this.options.maxPending;
    if (excess <= 0) return;
    this.pending.splice(0, excess);
    this.onDrop(excess);
  }
}
