import { useEffect, useRef, useState } from 'react';
import type { live } from '@panelfleet/contract';
import { LiveConnection, type EventSourceLike } from './liveConnection';

const connection = new LiveConnection('/platform/live/events', {
  // The browser's EventSource passes richer events than the connection reads.
  open: (url) => new EventSource(url) as unknown as EventSourceLike,
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
});

/**
 * Listens to the live console while the calling view is mounted and `enabled` (closing the view
 * closes its subscription; the stream closes with the last one). Returns whether the stream is
 * up: while it is, the view needs no polling.
 */
export function useLiveEvents(onEvent: (event: live.LiveEvent) => void, enabled = true): boolean {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  const [connected, setConnected] = useState(connection.connected);
  useEffect(() => {
    if (!enabled) return;
    const stopState = connection.onState(setConnected);
    const stop = connection.subscribe((event) => handler.current(event));
    setConnected(connection.connected);
    return () => {
      stopState();
      stop();
    };
  }, [enabled]);
  return enabled && connected;
}

/** Polling interval of a live screen: none while the stream is up, the spec's 5 s when it is down. */
export const pollWhile = (connected: boolean, fallbackMs: number) => (connected ? false : fallbackMs);
