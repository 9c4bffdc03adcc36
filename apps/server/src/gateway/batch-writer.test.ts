import { describe, expect, it } from 'vitest';
import { BatchWriter } from './batch-writer.js';

const unavailable = Object.assign(new Error('Connection terminated'), { code: '57P01' });
const isUnavailable = (err: unknown) => err === unavailable;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('BatchWriter', () => {
  it('keeps a batch that failed for a retryable reason and writes it, in order, when the store is back', async () => {
    const written: number[] = [];
    let down = true;
    const errors: unknown[] = [];
    const writer = new BatchWriter<number>(
      async (items) => {
        if (down) throw unavailable;
        written.push(...items);
      },
      (err) => errors.push(err),
      { intervalMs: 5, retryWhen: isUnavailable, retryDelayMs: 10, maxRetryDelayMs: 20 },
    );
    writer.add(1);
    writer.add(2);
    await writer.flush();
    writer.add(3);
    expect(writer.waiting).toBe(3);
    down = false;
    await settle(60);
    await writer.flush();
    expect(written).toEqual([1, 2, 3]);
    expect(errors).toHaveLength(1);
  });

  it('drops a batch that failed for another reason, and reports it', async () => {
    const errors: Array<[unknown, number]> = [];
    const writer = new BatchWriter<number>(
      async () => {
        throw new Error('constraint');
      },
      (err, count) => errors.push([err, count]),
      { retryWhen: isUnavailable },
    );
    writer.add(1);
    await writer.flush();
    expect(writer.waiting).toBe(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]![1]).toBe(1);
  });

  it('keeps at most maxPending items while retrying, dropping the oldest', async () => {
    const dropped: number[] = [];
    const writer = new BatchWriter<number>(
      async () => {
        throw unavailable;
      },
      () => undefined,
      { retryWhen: isUnavailable, maxPending: 3, retryDelayMs: 1000 },
      (count) => dropped.push(count),
    );
    for (let i = 0; i < 5; i++) writer.add(i);
    await writer.flush();
    expect(writer.waiting).toBe(3);
    expect(dropped.reduce((a, b) => a + b, 0)).toBe(2);
  });
});
