import { describe, expect, it } from 'vitest';
import { inOrder } from './read-ahead.js';

/** Reads that finish when the test says so, recording how many run at once. */
function controlledReads(count: number) {
  const finish: Array<(value: number) => void> = [];
  let running = 0;
  let mostAtOnce = 0;
  const reads = Array.from({ length: count }, (_, i) => () => {
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    return new Promise<number>((resolve) => {
      finish[i] = (value) => {
        running--;
        resolve(value);
      };
    });
  });
  return { reads, finish, started: () => finish.length, mostAtOnce: () => mostAtOnce };
}

describe('inOrder', () => {
  it('yields results in their order though later reads finish first, with at most `ahead` under way', async () => {
    const { reads, finish, started, mostAtOnce } = controlledReads(4);
    const results = inOrder(reads, 2);
    const first = results.next();
    expect(started()).toBe(2);
    finish[1]!(11);
    finish[0]!(10);
    expect((await first).value).toBe(10);
    const second = results.next();
    expect(started()).toBe(3);
    expect((await second).value).toBe(11);
    const third = results.next();
    expect(started()).toBe(4);
    finish[3]!(13);
    finish[2]!(12);
    expect((await third).value).toBe(12);
    expect((await results.next()).value).toBe(13);
    expect((await results.next()).done).toBe(true);
    expect(mostAtOnce()).toBe(2);
  });

  it('stops starting reads when the consumer stops, and a failing abandoned read is handled', async () => {
    let started = 0;
    const reads = [
      () => (started++, Promise.resolve(1)),
      () => (started++, Promise.reject(new Error('read failed after the client left'))),
      () => (started++, Promise.resolve(3)),
    ];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    for await (const value of inOrder(reads, 2)) {
      expect(value).toBe(1);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    process.off('unhandledRejection', onUnhandled);
    expect(started).toBe(2);
    expect(unhandled).toEqual([]);
  });
});
