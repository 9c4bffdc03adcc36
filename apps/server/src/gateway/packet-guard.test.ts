import { describe, expect, it } from 'vitest';
import { FrameScanner } from './packet-guard.js';

const limits = { connect: 100, packet: 1000 };
const bytes = (...values: number[]) => Buffer.from(values);

describe('MQTT frame scanner', () => {
  it('follows packets split anywhere, and several packets in one chunk', () => {
    const scanner = new FrameScanner(limits);
    // CONNECT of 3 bytes, fed one byte at a time.
    for (const b of [0x10, 3, 1, 2, 3]) expect(scanner.feed(bytes(b))).toBeUndefined();
    scanner.accept();
    // PUBLISH of 200 (two length bytes: 0xc8 0x01) and a PINGREQ in the same chunk, then the rest.
    expect(scanner.feed(Buffer.concat([bytes(0x30, 0xc8, 0x01), Buffer.alloc(150)]))).toBeUndefined();
    expect(scanner.feed(Buffer.concat([Buffer.alloc(50), bytes(0xc0, 0)]))).toBeUndefined();
    expect(scanner.feed(bytes(0xc0, 0x00, 0x30))).toBeUndefined();
  });

  it('refuses a packet over the limit from its length bytes, even when they arrive one by one', () => {
    const scanner = new FrameScanner(limits);
    expect(scanner.feed(bytes(0x10))).toBeUndefined();
    expect(scanner.feed(bytes(0xe5))).toBe('a packet of at least 101 bytes (limit 100)');
  });

  it('applies the connect limit until the connection is accepted, then the packet limit', () => {
    const before = new FrameScanner(limits);
    expect(before.feed(Buffer.concat([bytes(0x10, 2, 0, 0), bytes(0x30, 0xc8, 0x01)]))).toMatch(/limit 100/);
    const after = new FrameScanner(limits);
    expect(after.feed(bytes(0x10, 2, 0, 0))).toBeUndefined();
    after.accept();
    expect(after.feed(bytes(0x30, 0xc8, 0x01))).toBeUndefined();
    expect(after.feed(Buffer.concat([Buffer.alloc(200), bytes(0x30, 0xe9, 0x07)]))).toMatch(/limit 1000/);
  });

  it('refuses another packet before CONNECT and a malformed length', () => {
    expect(new FrameScanner(limits).feed(bytes(0x30, 0))).toBe('the first packet is not CONNECT');
    const scanner = new FrameScanner({ connect: 2 ** 30, packet: 2 ** 30 });
    expect(scanner.feed(bytes(0x10, 0x80, 0x80, 0x80, 0x80))).toBe('malformed remaining length');
  });
});
