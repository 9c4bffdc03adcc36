import { describe, expect, it } from 'vitest';
import { BatchWriter } from './batch-writer.js';
import { mergePanelStates, panelState, type PanelState } from './report-groups.js';

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

  it('tries batches that failed while more flushes were queued again in the order their items came', async () => {
    const written: number[] = [];
    const failures: Array<() => void> = [];
    let down = true;
    const writer = new BatchWriter<number>(
      (items) => {
        if (!down) {
          written.push(...items);
          return Promise.resolve();
        }
        return new Promise<void>((_, reject) => failures.push(() => reject(unavailable)));
      },
      () => undefined,
      { maxItems: 2, retryWhen: isUnavailable, retryDelayMs: 1000 },
    );
    writer.add(1);
    writer.add(2); // a flush starts and hangs on the database
    await settle(0);
    for (let i = 3; i <= 6; i++) writer.add(i); // more flushes asked for meanwhile
    failures.shift()!();
    await settle(0);
    failures.shift()!();
    down = false;
    await writer.flush();
    expect(written).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('keeps one state per panel while the database is away, each the newest its panel reported, and sheds none of them', async () => {
    const written: PanelState[] = [];
    const failures: Array<() => void> = [];
    let down = true;
    const dropped: number[] = [];
    const writer = new BatchWriter<PanelState>(
      (items) => {
        if (!down) {
          written.push(...items);
          return Promise.resolve();
        }
        return new Promise<void>((_, reject) => failures.push(() => reject(unavailable)));
      },
      () => undefined,
      {
        maxItems: 3,
        maxPending: 3,
        retryWhen: isUnavailable,
        retryDelayMs: 1000,
        keyOf: (state) => state.id,
        merge: mergePanelStates,
      },
      (count) => dropped.push(count),
    );
    const report = (id: number, seq: number) =>
      writer.add(panelState(id, { ram_used: seq, cpu_temperature: 40 + seq }, { receivedAt: 1000 + seq }));
    for (let seq = 1; seq <= 100; seq++) {
      for (const id of [1, 2, 3]) report(id, seq);
      if (seq % 10 === 0) {
        await settle(0);
        failures.shift()?.();
        await settle(0);
      }
    }
    while (failures.length) failures.shift()!();
    down = false;
    await writer.flush();
    expect(dropped).toEqual([]);
    expect(written.map((s) => [s.id, s.groups.telemetry?.set.ram_used, s.seenAt]).sort()).toEqual([
      [1, 100, 1100],
      [2, 100, 1100],
      [3, 100, 1100],
    ]);
  });

  it('beyond maxPending panels, sheds the panels that waited longest without a newer report', async () => {
    const dropped: number[] = [];
    const attempts: PanelState[][] = [];
    const writer = new BatchWriter<PanelState>(
      async (items) => {
        attempts.push(items);
        throw unavailable;
      },
      () => undefined,
      {
        maxPending: 2,
        retryWhen: isUnavailable,
        retryDelayMs: 1000,
        keyOf: (state) => state.id,
        merge: mergePanelStates,
      },
      (count) => dropped.push(count),
    );
    writer.add(panelState(1, { volume: 1 }, { receivedAt: 1 }));
    writer.add(panelState(2, { volume: 1 }, { receivedAt: 1 }));
    writer.add(panelState(1, { volume: 2 }, { receivedAt: 2 })); // panel 1 has news: panel 2 waited longest
    writer.add(panelState(3, { volume: 1 }, { receivedAt: 1 }));
    await writer.flush();
    expect(dropped).toEqual([1]);
    expect(attempts.at(-1)!.map((s) => [s.id, s.groups.sound?.set.volume])).toEqual([
      [1, 2],
      [3, 1],
    ]);
  });
});
