import type { ServerResponse } from 'node:http';
import { live } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { BusMessage, EventBus } from '../../events/bus.js';
import type { SessionState } from '../session/service.js';

export interface LiveHubOptions {
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Every stream's session is read again this often (a change made where no event reached us). */
  recheckMs: number;
  /** A stream whose unsent output grows beyond this (a client that stopped reading) is closed. */
  maxBufferedBytes: number;
  /** Streams one session holds at once; opening one more ends the session's oldest. */
  maxStreamsPerSession: number;
}

export const DEFAULT_HUB_OPTIONS: LiveHubOptions = {
  heartbeatMs: 25_000,
  recheckMs: 60_000,
  maxBufferedBytes: 1024 * 1024,
  maxStreamsPerSession: live.MAX_STREAMS_PER_SESSION,
};

export interface LiveLog {
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

interface Stream {
  sessionId: string;
  userId: number;
  /** The companies whose events it carries; 'all' for the platform admin. */
  orgs: ReadonlySet<number> | 'all';
  response: ServerResponse;
  /** Output waiting for the next flush (events of one tick go out in one write). */
  pending: string;
  endTimer: NodeJS.Timeout | undefined;
  closed: boolean;
}

/**
 * The live console's event streams (server-sent events), one per open console view. Events come
 * from the bus; each is serialised once and appended to the streams of its company; a stream
 * writes what gathered in one tick at once. A stream ends when its session ends: at once on the
 * bus's sessionEnded (sign-out, password change, disabled user), at the session's own end time
 * (idle or absolute expiry, end of the user's valid window), or when a periodic re-read finds the
 * session gone.
 */
export class LiveHub {
  private readonly streams = new Set<Stream>();
  private readonly byOrg = new Map<number, Set<Stream>>();
  private readonly everything = new Set<Stream>();
  private readonly bySession = new Map<string, Set<Stream>>();
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly recheck: NodeJS.Timeout;
  private flushScheduled = false;
  private readonly dirty = new Set<Stream>();
  /** Events written to streams so far (benchmarks). */
  delivered = 0;

  constructor(
    bus: EventBus,
    private readonly sessions: { inspect(id: string): Promise<SessionState | undefined> },
    private readonly clock: Clock,
    private readonly log: LiveLog,
    private readonly options: LiveHubOptions = DEFAULT_HUB_OPTIONS,
  ) {
    this.unsubscribe = bus.subscribe((message) => this.onMessage(message));
    this.heartbeat = setInterval(() => this.broadcastComment('ping'), options.heartbeatMs);
    this.heartbeat.unref();
    this.recheck = setInterval(() => void this.recheckAll(), options.recheckMs);
    this.recheck.unref();
  }

  get size() {
    return this.streams.size;
  }

  /**
   * Starts a stream on a hijacked response for a session whose end time is `endsAt`. A session
   * at its limit first loses its oldest stream (ended with reason `replaced`).
   */
  open(
    response: ServerResponse,
    session: { id: string; userId: number; endsAt: number },
    orgs: ReadonlySet<number> | 'all',
  ): void {
    const ofSession = this.bySession.get(session.id);
    // A set keeps the order streams opened in: the first one is the oldest.
    while (ofSession && ofSession.size >= this.options.maxStreamsPerSession)
      this.end(ofSession.values().next().value!, live.STREAM_REPLACED);
    const stream: Stream = {
      sessionId: session.id,
      userId: session.userId,
      orgs,
      response,
      pending: '',
      endTimer: undefined,
      closed: false,
    };
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    response.on('close', () => this.detach(stream));
    response.on('error', (err) => {
      this.log.warn({ err }, 'live stream failed');
      this.detach(stream);
    });
    this.streams.add(stream);
    let sessionStreams = this.bySession.get(session.id);
    if (!sessionStreams) this.bySession.set(session.id, (sessionStreams = new Set()));
    sessionStreams.add(stream);
    if (orgs === 'all') this.everything.add(stream);
    else
      for (const org of orgs) {
        let set = this.byOrg.get(org);
        if (!set) this.byOrg.set(org, (set = new Set()));
        set.add(stream);
      }
    response.write(`retry: 3000\nevent: ${live.STREAM_READY}\ndata: {}\n\n`);
    this.scheduleEnd(stream, session.endsAt);
  }

  /** Ends every stream (server shutdown). */
  closeAll() {
    for (const stream of [...this.streams]) this.end(stream, 'shutdown');
  }

  stop() {
    this.unsubscribe();
    clearInterval(this.heartbeat);
    clearInterval(this.recheck);
    this.closeAll();
  }

  private onMessage(message: BusMessage) {
    if (message.kind === 'sessionEnded') {
      for (const stream of [...this.streams]) {
        const match =
          stream.sessionId === message.sessionId ||
          (message.userId !== undefined &&
            stream.userId === message.userId &&
            stream.sessionId !== message.exceptSessionId);
        if (match) this.end(stream, 'sessionEnded');
      }
      return;
    }
    if (message.kind !== 'live') return;
    const targets = this.byOrg.get(message.orgId);
    if (!targets?.size && !this.everything.size) return;
    const chunk = `data: ${JSON.stringify(message.event)}\n\n`;
    if (targets) for (const stream of targets) this.queue(stream, chunk);
    for (const stream of this.everything) this.queue(stream, chunk);
  }

  private queue(stream: Stream, chunk: string) {
    stream.pending += chunk;
    this.delivered++;
    this.dirty.add(stream);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush() {
    this.flushScheduled = false;
    for (const stream of this.dirty) {
      if (stream.closed || !stream.pending) continue;
      const chunk = stream.pending;
      stream.pending = '';
      stream.response.write(chunk);
      if (stream.response.writableLength > this.options.maxBufferedBytes) {
        this.log.warn({ buffered: stream.response.writableLength }, 'live stream not read: closed');
        this.end(stream, 'slow');
      }
    }
    this.dirty.clear();
  }

  private broadcastComment(text: string) {
    for (const stream of this.streams) this.queue(stream, `: ${text}\n\n`);
  }

  private scheduleEnd(stream: Stream, endsAt: number) {
    if (stream.endTimer) clearTimeout(stream.endTimer);
    // Timers cannot wait longer than about 24.8 days; a session never lives that long.
    const wait = Math.min(Math.max(0, endsAt - this.clock.now()) + 50, 2 ** 31 - 1);
    stream.endTimer = setTimeout(() => void this.check(stream), wait);
    stream.endTimer.unref();
  }

  /** Reads the session again: ended, the stream goes; still live (a request touched it), wait for its new end. */
  private async check(stream: Stream) {
    if (stream.closed) return;
    try {
      const state = await this.sessions.inspect(stream.sessionId);
      if (stream.closed) return;
      if (!state) this.end(stream, 'sessionExpired');
      else this.scheduleEnd(stream, state.endsAt);
    } catch (err) {
      this.log.error({ err }, 'live stream session check failed');
      this.scheduleEnd(stream, this.clock.now() + this.options.recheckMs);
    }
  }

  private async recheckAll() {
    for (const stream of [...this.streams]) await this.check(stream);
  }

  private end(stream: Stream, reason: string) {
    if (stream.closed) return;
    const last = stream.pending;
    stream.pending = '';
    stream.response.end(`${last}event: ${live.STREAM_END}\ndata: ${JSON.stringify({ reason })}\n\n`);
    this.detach(stream);
  }

  private detach(stream: Stream) {
    if (stream.closed) return;
    stream.closed = true;
    if (stream.endTimer) clearTimeout(stream.endTimer);
    this.streams.delete(stream);
    const sessionStreams = this.bySession.get(stream.sessionId);
    sessionStreams?.delete(stream);
    if (sessionStreams && !sessionStreams.size) this.bySession.delete(stream.sessionId);
    this.everything.delete(stream);
    this.dirty.delete(stream);
    if (stream.orgs !== 'all')
      for (const org of stream.orgs) {
        const set = this.byOrg.get(org);
        set?.delete(stream);
        if (set && !set.size) this.byOrg.delete(org);
      }
  }
}
