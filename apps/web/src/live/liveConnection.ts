import { live } from '@panelfleet/contract';

export type LiveListener = (event: live.LiveEvent) => void;
export type StateListener = (connected: boolean) => void;

/** What the connection needs of the browser (EventSource, timers): tests hand in fakes. */
export interface LiveEnvironment {
  open(url: string): EventSourceLike;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface EventSourceLike {
  readonly readyState: number;
  onmessage: ((event: { data: string }) => void) | null;
  onerror: (() => void) | null;
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  close(): void;
}

const CLOSED = 2;
/** After the server refused or ended a stream, a new one is tried this much later while views still listen. */
export const REOPEN_MS = 10_000;

/**
 * The console's one event stream (server-sent events, same origin). It is open exactly while
 * some view listens: the first subscriber opens it, the last one to leave closes it. While it is
 * up (`connected`), views drop their 5-second polls; when it breaks they poll again until it is
 * back. A stream the server ends (sign-out, expiry) is not reopened until a view subscribes anew
 * or REOPEN_MS has passed.
 */
export class LiveConnection {
  private source: EventSourceLike | undefined;
  private readonly listeners = new Set<LiveListener>();
  private readonly stateListeners = new Set<StateListener>();
  private reopenTimer: unknown;
  connected = false;

  constructor(
    private readonly url: string,
    private readonly env: LiveEnvironment,
  ) {}

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    if (!this.source && this.reopenTimer === undefined) this.open();
    return () => {
      this.listeners.delete(listener);
      if (!this.listeners.size) this.shut();
    };
  }

  onState(listener: StateListener): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  get listening() {
    return this.listeners.size;
  }

  private open() {
    const source = this.env.open(this.url);
    this.source = source;
    source.addEventListener(live.STREAM_READY, () => this.setConnected(true));
    source.addEventListener(live.STREAM_END, () => {
      // The session ended: polls will meet the sign-in prompt; nothing is reopened at once.
      this.drop();
      this.scheduleReopen();
    });
    source.onmessage = (message) => {
      let parsed: live.LiveEvent;
      try {
        parsed = live.liveEvent.parse(JSON.parse(message.data));
      } catch (err) {
        console.warn('live event not understood', err);
        return;
      }
      for (const listener of [...this.listeners]) listener(parsed);
    };
    source.onerror = () => {
      this.setConnected(false);
      // A refused stream (no session) is closed for good by the browser; a broken one retries itself.
      if (source.readyState === CLOSED) {
        this.drop();
        this.scheduleReopen();
      }
    };
  }

  private scheduleReopen() {
    if (!this.listeners.size || this.reopenTimer !== undefined) return;
    this.reopenTimer = this.env.setTimeout(() => {
      this.reopenTimer = undefined;
      if (this.listeners.size && !this.source) this.open();
    }, REOPEN_MS);
  }

  private drop() {
    this.source?.close();
    this.source = undefined;
    this.setConnected(false);
  }

  private shut() {
    if (this.reopenTimer !== undefined) this.env.clearTimeout(this.reopenTimer);
    this.reopenTimer = undefined;
    this.drop();
  }

  private setConnected(connected: boolean) {
    if (this.connected === connected) return;
    this.connected = connected;
    for (const listener of [...this.stateListeners]) listener(connected);
  }
}
