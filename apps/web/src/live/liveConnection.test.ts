import { describe, expect, it } from 'vitest';
import { live } from '@panelfleet/contract';
import { LiveConnection, REOPEN_MS, type EventSourceLike, type LiveEnvironment } from './liveConnection';

class FakeSource implements EventSourceLike {
  readyState = 0;
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  private named = new Map<string, (event: { data: string }) => void>();
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    this.named.set(type, listener);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data = '{}') {
    this.named.get(type)?.({ data });
  }
}

function environment() {
  const sources: FakeSource[] = [];
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const env: LiveEnvironment = {
    open: () => {
      const source = new FakeSource();
      sources.push(source);
      return source;
    },
    setTimeout: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (handle) => {
      (handle as { cleared: boolean }).cleared = true;
    },
  };
  return { env, sources, timers };
}

const presence = { type: 'presence', deviceId: 1, deviceKey: 'K1', online: false, at: 1 };

describe('LiveConnection', () => {
  it('opens one stream for the first view, delivers parsed events to every view, and closes with the last', () => {
    const { env, sources } = environment();
    const connection = new LiveConnection('/platform/live/events', env);
    const a: live.LiveEvent[] = [];
    const b: live.LiveEvent[] = [];
    const states: boolean[] = [];
    connection.onState((s) => states.push(s));
    const stopA = connection.subscribe((e) => a.push(e));
    const stopB = connection.subscribe((e) => b.push(e));
    expect(sources).toHaveLength(1);
    sources[0]!.emit(live.STREAM_READY);
    expect(connection.connected).toBe(true);
    sources[0]!.onmessage!({ data: JSON.stringify(presence) });
    sources[0]!.onmessage!({ data: '{"type":"nonsense"}' });
    expect(a).toEqual([presence]);
    expect(b).toEqual([presence]);
    stopA();
    expect(sources[0]!.closed).toBe(false);
    stopB();
    expect(sources[0]!.closed).toBe(true);
    expect(states).toEqual([true, false]);
  });

  it('falls back (not connected) when the stream breaks, and reopens later after the server refused or ended it', () => {
    const { env, sources, timers } = environment();
    const connection = new LiveConnection('/x', env);
    connection.subscribe(() => undefined);
    sources[0]!.emit(live.STREAM_READY);
    sources[0]!.onerror!();
    expect(connection.connected).toBe(false);
    expect(timers).toHaveLength(0);
    sources[0]!.emit(live.STREAM_END);
    expect(sources[0]!.closed).toBe(true);
    expect(timers[0]!.ms).toBe(REOPEN_MS);
    timers[0]!.fn();
    expect(sources).toHaveLength(2);
  });

  it('does not reopen a stream that a newer tab of the session replaced, until views listen anew', () => {
    const { env, sources, timers } = environment();
    const connection = new LiveConnection('/x', env);
    const stop = connection.subscribe(() => undefined);
    sources[0]!.emit(live.STREAM_READY);
    sources[0]!.emit(live.STREAM_END, JSON.stringify({ reason: live.STREAM_REPLACED }));
    expect(sources[0]!.closed).toBe(true);
    expect(connection.connected).toBe(false);
    expect(timers).toHaveLength(0);
    // Another view of the same page joins: still polling, no new stream.
    const stopSecond = connection.subscribe(() => undefined);
    expect(sources).toHaveLength(1);
    stop();
    stopSecond();
    // The user opens another view in this tab: it is live again.
    connection.subscribe(() => undefined);
    expect(sources).toHaveLength(2);
  });
});
