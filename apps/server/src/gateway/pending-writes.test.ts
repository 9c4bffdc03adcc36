import { describe, expect, it } from 'vitest';
import { PendingWrites } from './pending-writes.js';

const unavailable = new Error('Connection terminated');
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PendingWrites', () => {
  it('waits while the store is away and writes everything, in order, when it is back', async () => {
    let down = true;
    const written: number[] = [];
    const errors: string[] = [];
    const writes = new PendingWrites({
      retryWhen: (err) => err === unavailable,
      onError: (_err, what) => errors.push(what),
      onDrop: () => undefined,
      concurrency: 1,
      retryDelayMs: 10,
      maxRetryDelayMs: 20,
    });
    for (let i = 1; i <= 4; i++)
      writes.add(`write ${i}`, async () => {
        if (down) throw unavailable;
        written.push(i);
      });
    await writes.settled();
    expect(writes.waiting).toBe(4);
    down = false;
    await settle(80);
    expect(written).toEqual([1, 2, 3, 4]);
    expect(writes.waiting).toBe(0);
    // One report for the outage, not one per write or per retry.
    expect(errors).toEqual(['write 1']);
  });

  it('reports and drops a write that failed for another reason, and goes on', async () => {
    const written: string[] = [];
    const errors: string[] = [];
    const writes = new PendingWrites({
      retryWhen: (err) => err === unavailable,
      onError: (_err, what) => errors.push(what),
      onDrop: () => undefined,
    });
    writes.add('bad', async () => {
      throw new Error('constraint');
    });
    writes.add('good', async () => void written.push('good'));
    await writes.settled();
    expect(errors).toEqual(['bad']);
    expect(written).toEqual(['good']);
  });

  it('keeps at most maxPending writes, dropping the oldest', async () => {
    let dropped = 0;
    const writes = new PendingWrites({
      retryWhen: () => true,
      onError: () => undefined,
      onDrop: (count) => (dropped += count),
      maxPending: 2,
      retryDelayMs: 1000,
    });
    for (let i = 0; i < 5; i++)
      writes.add(`write ${i}`, async () => {
        throw unavailable;
      });
    await writes.settled();
    expect(writes.waiting).toBeLessThanOrEqual(2);
    expect(dropped).toBeGreaterThanOrEqual(3);
    writes.stop();
  });

  it("hands over the receipts of a batch's successful writes together, and a retried one's once it succeeds", async () => {
    let down = false;
    const batches: string[][] = [];
    const writes = new PendingWrites<string>({
      retryWhen: (err) => err === unavailable,
      onError: () => undefined,
      onDrop: () => undefined,
      onStored: (receipts) => batches.push(receipts),
      concurrency: 3,
      retryDelayMs: 10,
    });
    const write = (fails: boolean) => async () => {
      if (fails && down) throw unavailable;
    };
    writes.add('first', write(false), 'r1');
    writes.add('no receipt', write(false));
    writes.add('second', write(false), 'r2');
    writes.add('third', write(false), 'r3');
    await writes.settled();
    // The first write starts at once on its own; the next three wait and go as one batch.
    expect(batches).toEqual([['r1'], ['r2', 'r3']]);
    down = true;
    writes.add('away', write(true), 'r4');
    writes.add('fine', write(false), 'r5');
    await writes.settled();
    // 'fine' came while 'away' was tried: it waits behind it, in order, and nothing is confirmed yet.
    expect(batches).toHaveLength(2);
    down = false;
    for (let i = 0; i < 200 && batches.length < 3; i++) await settle(5);
    expect(batches.slice(2)).toEqual([['r4', 'r5']]);
  });
});
