import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DETAIL_POLL_MS, startPoller } from './poller';

interface Read {
  signal: AbortSignal;
  quietFail: boolean;
  resolve(value: number): void;
}

describe('detail poller', () => {
  let reads: Read[];
  let delivered: number[];
  const fetch = (signal: AbortSignal, quietFail: boolean) =>
    new Promise<number>((resolve) => reads.push({ signal, quietFail, resolve }));
  const settle = () => new Promise((r) => setImmediate(r));

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    reads = [];
    delivered = [];
  });
  afterEach(() => vi.useRealTimers());

  it('reads at once and every 5 seconds; only the first read may show a refusal', async () => {
    const poller = startPoller(
      fetch,
      (n) => delivered.push(n),
      () => undefined,
    );
    expect(reads).toHaveLength(1);
    reads[0]!.resolve(1);
    await settle();
    vi.advanceTimersByTime(DETAIL_POLL_MS);
    expect(reads).toHaveLength(2);
    reads[1]!.resolve(2);
    await settle();
    expect(delivered).toEqual([1, 2]);
    expect(reads.map((r) => r.quietFail)).toEqual([false, true]);
    poller.stop();
  });

  it('cancels a pending read when a newer one starts, so an old answer never shows', async () => {
    const poller = startPoller(
      fetch,
      (n) => delivered.push(n),
      () => undefined,
    );
    poller.load();
    expect(reads[0]!.signal.aborted).toBe(true);
    reads[0]!.resolve(1);
    reads[1]!.resolve(2);
    await settle();
    expect(delivered).toEqual([2]);
    poller.stop();
  });

  it('on stop cancels the read on its way and reads no more', async () => {
    const errors: unknown[] = [];
    const poller = startPoller(
      fetch,
      (n) => delivered.push(n),
      (e) => errors.push(e),
    );
    poller.stop();
    expect(reads[0]!.signal.aborted).toBe(true);
    reads[0]!.resolve(1);
    vi.advanceTimersByTime(DETAIL_POLL_MS * 3);
    poller.load();
    await settle();
    expect(reads).toHaveLength(1);
    expect(delivered).toEqual([]);
    expect(errors).toEqual([]);
  });
});
