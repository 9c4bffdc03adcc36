export interface BatchWriterOptions<T> {
  /** Flush at most this often (ms). */
  intervalMs?: number;
  /** Flush at once when this many items wait. */
  maxItems?: number;
  /**
   * Errors for which a batch is kept and tried again later (the database is away) instead of
   * being dropped. Default: none.
   */
  retryWhen?: (err: unknown) => boolean;
  /** Most items kept while retrying; beyond it the least recently added are dropped (and reported). */
  maxPending?: number;
  /** First wait before a retry; it doubles up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * Items of one key wait as one: a new item is merged into the one waiting (`merge(older, newer)`),
   * so a superseded item takes no room and a batch holds one item per key. Without it every item
   * waits on its own, in order.
   */
  keyOf?: (item: T) => unknown;
  merge?: (older: T, newer: T) => T;
}

/**
 * Collects items and hands them to `flush` in batches: every `intervalMs`, or at once when
 * `maxItems` are waiting. One flush runs at a time and takes what waits when it starts. A batch
 * that fails for a reason `retryWhen` accepts goes back in front of what came since (merged with
 * it per key) and is tried again with a growing delay, keeping at most `maxPending` items; any
 * other failure is reported and its items dropped (device reports are periodic, the next one
 * repairs the row).
 */
export class BatchWriter<T> {
  /** In the order they were last added to: the front is what has waited longest unchanged. */
  private pending = new Map<unknown, T>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  /** A flush is queued behind the running one; it will take everything added meanwhile. */
  private flushQueued = false;
  private retryDelay: number;
  private retrying = false;
  private sequence = 0;
  private readonly options: Required<Omit<BatchWriterOptions<T>, 'keyOf' | 'merge'>>;

  constructor(
    private readonly flushBatch: (items: T[]) => Promise<void>,
    private readonly onError: (err: unknown, count: number) => void,
    private readonly writerOptions: BatchWriterOptions<T> = {},
    private readonly onDrop: (count: number) => void = () => undefined,
  ) {
    this.options = {
      intervalMs: 200,
      maxItems: 2000,
      retryWhen: () => false,
      maxPending: 100_000,
      retryDelayMs: 500,
      maxRetryDelayMs: 5000,
      ...writerOptions,
    };
    this.retryDelay = this.options.retryDelayMs;
  }

  /** Items waiting to be written (also those kept for a retry). */
  get waiting() {
    return this.pending.size;
  }

  add(item: T) {
    this.put(this.pending, item);
    this.trim();
    if (this.retrying) return; // the retry timer flushes everything when it fires
    if (this.pending.size >= this.options.maxItems) void this.flush();
    else this.schedule(this.options.intervalMs);
  }

  /** Tries to write everything added so far; resolves when that attempt is over. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.flushQueued) return this.running;
    this.flushQueued = true;
    this.running = this.running.then(async () => {
      this.flushQueued = false;
      const batch = this.pending;
      this.pending = new Map();
      if (!batch.size) return;
      try {
        await this.flushBatch([...batch.values()]);
        this.retrying = false;
        this.retryDelay = this.options.retryDelayMs;
      } catch (err) {
        if (!this.options.retryWhen(err)) return this.onError(err, batch.size);
        if (!this.retrying) this.onError(err, batch.size);
        this.retrying = true;
        this.putBack(batch);
        this.trim();
        this.schedule(this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, this.options.maxRetryDelayMs);
      }
    });
    return this.running;
  }

  /** A failed batch goes in front of what was added since; an item of the same key since then takes it in. */
  private putBack(batch: Map<unknown, T>) {
    const since = this.pending;
    for (const [key, item] of since) {
      const older = batch.get(key);
      if (older === undefined) continue;
      batch.delete(key);
      since.set(key, this.writerOptions.merge!(older, item));
    }
    this.pending = batch;
    for (const [key, item] of since) this.pending.set(key, item);
  }

  private put(into: Map<unknown, T>, item: T) {
    const { keyOf, merge } = this.writerOptions;
    if (!keyOf || !merge) {
      into.set(this.sequence++, item);
      return;
    }
    const key = keyOf(item);
    const older = into.get(key);
    if (older === undefined) {
      into.set(key, item);
      return;
    }
    // Moved to the end: shedding takes the items that waited longest without news first.
    into.delete(key);
    into.set(key, merge(older, item));
  }

  private schedule(delayMs: number) {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), delayMs);
    this.timer.unref();
  }

  private trim() {
    const excess = this.pending.size - this.options.maxPending;
    if (excess <= 0) return;
    let left = excess;
    for (const key of this.pending.keys()) {
      if (left-- <= 0) break;
      this.pending.delete(key);
    }
    this.onDrop(excess);
  }
}
