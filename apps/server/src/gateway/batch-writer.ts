/**
 * Collects items and hands them to `flush` in batches: every `intervalMs`, or at once when
 * `maxItems` are waiting. One flush runs at a time; a failed flush is logged and its items dropped
 * (device reports are periodic, the next one repairs the row).
 */
export class BatchWriter<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly flushBatch: (items: T[]) => Promise<void>,
    private readonly onError: (err: unknown, count: number) => void,
    private readonly intervalMs = 200,
    private readonly maxItems = 2000,
  ) {}

  add(item: T) {
    this.pending.push(item);
    if (this.pending.length >= this.maxItems) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes everything added so far; resolves when it is in the database. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.running = this.running.then(async () => {
      if (!batch.length) return;
      try {
        await this.flushBatch(batch);
      } catch (err) {
        this.onError(err, batch.length);
      }
    });
    return this.running;
  }
}
