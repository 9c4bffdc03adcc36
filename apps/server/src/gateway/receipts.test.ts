import { device } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { ackStored, receiptsByPanel } from './receipts.js';

const uuid = (n: number) => `018f6b2e-4c1a-7d2b-9a51-${String(n).padStart(12, '0')}`;

describe('receipts', () => {
  it('names what one batch stored in one message per panel', () => {
    const receipts = receiptsByPanel([
      { deviceKey: 'SN-A', list: 'usage', id: 'usage-0001' },
      { deviceKey: 'SN-B', list: 'logs', id: 'log-00001' },
      { deviceKey: 'SN-A', list: 'acks', id: uuid(1) },
      { deviceKey: 'SN-A', list: 'usage', id: 'usage-0002' },
      { deviceKey: 'SN-A', list: 'finished', id: uuid(2) },
    ]);
    expect([...receipts]).toEqual([
      ['SN-A', [{ v: 1, acks: [uuid(1)], finished: [uuid(2)], usage: ['usage-0001', 'usage-0002'] }]],
      ['SN-B', [{ v: 1, logs: ['log-00001'] }]],
    ]);
    for (const messages of receipts.values())
      for (const message of messages) expect(device.receipt.parse(message)).toEqual(message);
  });

  it('splits a panel past the most ids one receipt names', () => {
    const stored = Array.from({ length: device.RECEIPT_MAX_IDS + 3 }, (_, i) => ({
      deviceKey: 'SN-A',
      list: 'usage' as const,
      id: `usage-${String(i).padStart(5, '0')}`,
    }));
    const messages = receiptsByPanel(stored).get('SN-A')!;
    expect(messages.map((m) => m.usage?.length)).toEqual([device.RECEIPT_MAX_IDS, 3]);
    expect(messages.flatMap((m) => m.usage)).toEqual(stored.map((s) => s.id));
    for (const message of messages) expect(device.receipt.safeParse(message).success).toBe(true);
  });

  it('confirms final acknowledgements, a program finished apart, and never a received', () => {
    const ack = (result: device.AckResult, detail?: string): device.CommandAck => ({
      v: 1,
      id: uuid(3),
      result,
      ...(detail ? { detail } : {}),
    });
    expect(ackStored('SN-A', ack('received'))).toBeUndefined();
    expect(ackStored('SN-A', ack('failed', 'download'))).toEqual({
      deviceKey: 'SN-A',
      list: 'acks',
      id: uuid(3),
    });
    expect(ackStored('SN-A', ack('succeeded', 'playing'))).toMatchObject({ list: 'acks' });
    expect(ackStored('SN-A', ack('succeeded', 'finished'))).toMatchObject({ list: 'finished' });
  });
});
