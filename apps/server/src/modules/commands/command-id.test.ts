import { device } from '@panelfleet/contract';
import { describe, expect, it } from 'vitest';
import { commandId } from './command-id.js';

describe('command ids', () => {
  it('are version-7 UUIDs that panels accept, carrying the time they were made', () => {
    const at = Date.UTC(2026, 10, 21, 12, 0, 0);
    const id = commandId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBeGreaterThanOrEqual(at);
    expect(device.commandAck.safeParse({ v: device.PROTOCOL_VERSION, id, result: 'succeeded' }).success).toBe(
      true,
    );
  });

  it('sort in the order they were made, also thousands within one millisecond and when the clock steps back', () => {
    const at = Date.UTC(2026, 10, 21, 13, 0, 0);
    const ids = [
      ...Array.from({ length: 10_000 }, () => commandId(at)),
      commandId(at - 5_000),
      commandId(at + 60_000),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
