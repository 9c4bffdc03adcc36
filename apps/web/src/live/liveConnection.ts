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

/** The reason of the server's `end` event (`{"reason":"…"}`). */
const endReason = (data: string) => /"reason":"(\w+)"/.exec(data)?.[1];
/** After the server refused or ended a stream, a new one is tried this much later while views still listen. */
export const REOPEN_MS = 10_000;

/**
 * The console's one event stream (server-sent events, same origin). It is open exactly while
 * some view listens: the first subscriber opens it, the last one to leave closes it. While it is
 * up (`connected`), views drop their 5-second polls; when it breaks they poll again until it is
 * back. A stream the server ends (sign-out, expiry) is not reopened until a view subscribes anew
 * or REOPEN_MS has passed; one it ended because a newer tab of the session took its place
 * (`replaced`) only once every view has left and another listens (a navigation in this tab).
 */
export class LiveConnection {
  private source: EventSourceLike | undefined;
  private readonly listeners = new Set<LiveListener>();
  private readonly stateListeners = new Set<StateListener>();
  private reopenTimer: unknown;
  /** The server gave this stream's place to a newer one of the session: not reopened while views listen. */
  private replaced = false;
  connected = false;

  constructor(
    private readonly url: string,
    private readonly env: LiveEnvironment,
  ) {}

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    if (!this.source && this.reopenTimer === undefined && !this.replaced) this.open();
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
    source.addEventListener(live.STREAM_END, (event) => {
      this.drop();
      // A newer tab of the same session took this stream's place: this one polls from now on
      // (reopening would in turn end that tab's stream). Otherwise the session ended: polls
      // will meet the sign-in prompt, and a new stream is tried later.
      if (endReason(event.data) === live.STREAM_REPLACED) this.replaced = true;
      else this.scheduleReopen();
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
    // Every view has left: the next one to listen (a navigation in this tab) opens a stream again.
    this.replaced = false;
    this.drop();
  }

  private setConnected(connected: boolean) {
    if (this.connected === connected) return;
    this.connected = connected;
    for (const listener of [...this.stateListeners]) listener(connected);
  }
}
