import { describe, expect, it } from 'vitest';
import { Outbox, type KeptKind } from './outbox.js';

const uuid = (n: number) => `018f6b2e-4c1a-7d2b-9a51-${String(n).padStart(12, '0')}`;

function outbox(options: { maxMessages?: number; maxAgeMs?: number } = {}) {
  const sent: Array<{ kind: KeptKind; id: string }> = [];
  const clock = { now: 0 };
  const box = new Outbox({
    send: async (kind, payload) => {
      sent.push({ kind, id: (payload as { id: string }).id });
    },
    now: () => clock.now,
    log: () => undefined,
    resendFirstMs: 1000,
    resendMaxMs: 4000,
    ...options,
  });
  box.setConfirming(true);
  return { box, sent, clock };
}

describe('the outbox of a simulated panel', () => {
  it('sends a final result, usage and a log again after a silence, until a receipt names them', async () => {
    const { box, sent, clock } = outbox();
    await box.send('ack', { v: 1, id: uuid(1), result: 'failed', detail: 'download' });
    await box.send('ack', { v: 1, id: uuid(2), result: 'succeeded', detail: 'finished' });
    await box.send('usage', { v: 1, id: 'usage-0001' });
    await box.send('log', { v: 1, id: 'log-00001' });
    expect(sent).toHaveLength(4);
    clock.now = 400; // sooner than half the first wait: nothing yet
    await box.resendDue();
    expect(sent).toHaveLength(4);
    clock.now = 1000;
    await box.resendDue();
    expect(sent.slice(4).map((s) => s.id)).toEqual([uuid(1), uuid(2), 'usage-0001', 'log-00001']);
    // The program's first `succeeded` is not its `finished`: a receipt names each in its own list.
    box.confirm({ v: 1, acks: [uuid(1), uuid(2)], usage: ['usage-0001'], logs: ['log-00001'] });
    expect(box.size).toBe(1);
    box.confirm({ v: 1, finished: [uuid(2)] });
    expect(box.size).toBe(0);
    clock.now = 100_000;
    await box.resendDue();
    expect(sent).toHaveLength(8);
  });

  it('waits longer each time, up to its most, and sends everything at once after a reconnect', async () => {
    const { box, sent, clock } = outbox();
    await box.send('usage', { v: 1, id: 'usage-0001' });
    const resentAt: number[] = [];
    for (clock.now = 0; clock.now <= 20_000; clock.now += 100) {
      const before = sent.length;
      await box.resendDue();
      if (sent.length > before) resentAt.push(clock.now);
    }
    const waits = resentAt.map((at, i) => at - (i ? resentAt[i - 1]! : 0));
    // Random between half and all of 1 s, 2 s, 4 s, then 4 s each.
    expect(waits[0]).toBeGreaterThanOrEqual(500);
    expect(waits[0]).toBeLessThanOrEqual(1100);
    expect(waits[1]).toBeGreaterThanOrEqual(1000);
    expect(waits[2]).toBeGreaterThanOrEqual(2000);
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(4100);
    const before = sent.length;
    await box.resendAll();
    expect(sent.length).toBe(before + 1);
  });

  it('keeps at most its bound and for at most its age, and nothing when the server sends no receipts', async () => {
    const { box, sent, clock } = outbox({ maxMessages: 3, maxAgeMs: 10_000 });
    for (let i = 1; i <= 5; i++) await box.send('usage', { v: 1, id: `usage-000${i}` });
    expect(box.size).toBe(3);
    expect(box.givenUp).toBe(2);
    await box.resendAll();
    expect(sent.slice(5).map((s) => s.id)).toEqual(['usage-0003', 'usage-0004', 'usage-0005']);
    clock.now = 10_001;
    await box.resendAll();
    expect(box.size).toBe(0);
    expect(box.givenUp).toBe(5);

    box.setConfirming(false);
    await box.send('log', { v: 1, id: 'log-00009' });
    expect(box.size).toBe(0);
    expect(sent.at(-1)).toEqual({ kind: 'log', id: 'log-00009' });
  });
});
