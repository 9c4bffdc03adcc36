import { describe, expect, it } from 'vitest';
import { InProcessEventBus, taskProgressPublisher, type BusMessage } from './bus.js';

describe('InProcessEventBus', () => {
  it('hands every message to every subscriber in order, and stops after unsubscribe', () => {
    const errors: unknown[] = [];
    const bus = new InProcessEventBus({ error: (obj) => errors.push(obj) });
    const a: BusMessage[] = [];
    const b: BusMessage[] = [];
    const stopA = bus.subscribe((m) => a.push(m));
    bus.subscribe((m) => b.push(m));
    bus.publish({ kind: 'sessionEnded', sessionId: 's1' });
    stopA();
    bus.publish({ kind: 'sessionEnded', userId: 7 });
    expect(a).toEqual([{ kind: 'sessionEnded', sessionId: 's1' }]);
    expect(b.map((m) => (m.kind === 'sessionEnded' ? (m.sessionId ?? m.userId) : undefined))).toEqual([
      's1',
      7,
    ]);
    expect(errors).toEqual([]);
  });

  it('keeps delivering when one subscriber throws, and logs it', () => {
    const errors: unknown[] = [];
    const bus = new InProcessEventBus({ error: (obj) => errors.push(obj) });
    const seen: BusMessage[] = [];
    bus.subscribe(() => {
      throw new Error('broken subscriber');
    });
    bus.subscribe((m) => seen.push(m));
    bus.publish({ kind: 'sessionEnded', sessionId: 'x' });
    expect(seen).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });

  it('publishes task progress as a live event of the task company', () => {
    const bus = new InProcessEventBus({ error: () => undefined });
    const seen: BusMessage[] = [];
    bus.subscribe((m) => seen.push(m));
    taskProgressPublisher(bus, () => 42)(5, {
      kind: 'ota',
      taskId: '9',
      done: 3,
      failed: 1,
      total: 10,
      finished: false,
    });
    expect(seen).toEqual([
      {
        kind: 'live',
        orgId: 5,
        event: {
          type: 'taskProgress',
          kind: 'ota',
          taskId: '9',
          done: 3,
          failed: 1,
          total: 10,
          finished: false,
          at: 42,
        },
      },
    ]);
  });
});
