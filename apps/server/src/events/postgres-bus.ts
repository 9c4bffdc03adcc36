import crypto from 'node:crypto';
import pg from 'pg';
import { InProcessEventBus, mustArrive, type BusListener, type BusMessage, type EventBus } from './bus.js';

export interface SharedBusLog {
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

/** Sends one notification on a channel (through the server's pool). */
export type Notify = (channel: string, payload: string) => Promise<void>;

export interface SharedBusTimings {
  /** How often the listening connection proves it still works. */
  heartbeatMs: number;
  /** How long its answer may take before the connection counts as lost. */
  heartbeatTimeoutMs: number;
  /** Wait before listening again, and before sending again what must arrive. */
  retryMs: number;
}

export const DEFAULT_SHARED_BUS_TIMINGS: SharedBusTimings = {
  heartbeatMs: 5000,
  heartbeatTimeoutMs: 10_000,
  retryMs: 1000,
};

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; a batch stays under it. */
const MAX_PAYLOAD_BYTES = 7_500;

interface Envelope {
  from: string;
  messages: BusMessage[];
}

/**
 * The bus of several instances on one PostgreSQL database (issue 18): what an instance publishes
 * reaches its own subscribers at once, in order, and the other instances' through LISTEN/NOTIFY on
 * a channel of the schema. Messages of one tick travel together in as few notifications as fit.
 * A message every instance publishes itself (`local`: presence, which each reads from the broker)
 * stays in its instance.
 *
 * Missed messages (issue 23). While the listening connection is down (the database restarted, a
 * network cut) other instances' messages are lost: once it listens again the bus publishes
 * `eventsMissed` to its own subscribers, so that what they keep on others' word (cached panel
 * credentials) is read again. A connection that dies silently is found by a heartbeat query
 * (`heartbeatMs`, answered within `heartbeatTimeoutMs`). A notification that could not be sent
 * is sent again every `retryMs` while this instance runs when it must arrive (access changes,
 * ended sessions); others (live console events) are dropped and logged.
 */
export class PostgresEventBus implements EventBus {
  private readonly local: InProcessEventBus;
  private readonly instance = crypto.randomUUID();
  private readonly channel: string;
  private outbox: BusMessage[] = [];
  private flushing: Promise<void> | undefined;
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private resendTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Listened before: a later LISTEN follows a gap in which messages may have been missed. */
  private listened = false;
  private stopped = false;
  /** Messages received from other instances (tests read it). */
  received = 0;

  constructor(
    private readonly url: string,
    schema: string,
    private readonly notify: Notify,
    private readonly log: SharedBusLog,
    private readonly timings: SharedBusTimings = DEFAULT_SHARED_BUS_TIMINGS,
  ) {
    this.local = new InProcessEventBus(log);
    this.channel = `pf_events_${schema}`;
  }

  async start() {
    await this.listen();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.resendTimer);
    clearInterval(this.heartbeat);
    await this.flushing;
    if (this.outbox.length)
      this.log.error(
        { count: this.outbox.length },
        'events not shared with the other instances before stopping',
      );
    this.outbox = [];
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end();
  }

  publish(message: BusMessage) {
    this.local.publish(message);
    // After stop the instance is shutting down: what it still publishes stays in it.
    if (this.stopped || (message.kind === 'live' && message.local) || message.kind === 'eventsMissed') return;
    this.outbox.push(message);
    if (!this.resendTimer) this.flushSoon();
  }

  subscribe(listener: BusListener) {
    return this.local.subscribe(listener);
  }

  private flushSoon() {
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  private async flush() {
    const messages = this.outbox;
    this.outbox = [];
    this.flushing = undefined;
    const { groups, tooLarge } = batches(this.instance, messages);
    for (const message of tooLarge)
      this.log.error({ kind: message.kind }, 'an event too large to share stayed in its instance');
    const unsent: BusMessage[] = [];
    for (const group of groups) {
      try {
        await this.notify(this.channel, group.payload);
      } catch (err) {
        const again = group.messages.filter(mustArrive);
        unsent.push(...again);
        this.log.error(
          { err, channel: this.channel, dropped: group.messages.length - again.length, again: again.length },
          'events not shared with the other instances',
        );
      }
    }
    if (!unsent.length) return;
    // Sent again, before what came meanwhile, once the database may answer again.
    this.outbox = [...unsent, ...this.outbox];
    if (this.stopped) return;
    this.resendTimer = setTimeout(() => {
      this.resendTimer = undefined;
      this.flushSoon();
    }, this.timings.retryMs);
    this.resendTimer.unref();
  }

  private async listen() {
    const client = new pg.Client({
      connectionString: this.url,
      // Names the listening connections of this deployment (operators and tests find them by it).
      application_name: this.channel,
      keepAlive: true,
      query_timeout: this.timings.heartbeatTimeoutMs,
    });
    client.on('notification', (notification) => {
      if (notification.channel === this.channel && notification.payload)
        this.deliverFromOthers(notification.payload);
    });
    client.on('error', (err) => {
      this.log.warn({ err }, "the other instances' events are not received: listening again");
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN "${this.channel}"`);
    if (this.stopped) {
      await client.end();
      return;
    }
    this.listener = client;
    this.beat(client);
    if (this.listened) {
      this.log.warn(
        { channel: this.channel },
        "listening again: the other instances' events of the gap are missed",
      );
      this.local.publish({ kind: 'eventsMissed' });
    }
    this.listened = true;
  }

  /** Proves the listening connection alive now and then: one that died silently counts as lost. */
  private beat(client: pg.Client) {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (this.listener !== client) return;
      client.query('SELECT 1').catch((err: unknown) => {
        this.log.warn(
          { err },
          "the listening connection does not answer: the other instances' events are not received",
        );
        this.lost(client);
      });
    }, this.timings.heartbeatMs);
    this.heartbeat.unref();
  }

  private lost(client: pg.Client) {
    if (this.stopped || this.listener !== client) return;
    this.listener = undefined;
    clearInterval(this.heartbeat);
    client
      .end()
      .catch((err: unknown) => this.log.warn({ err }, 'a broken listening connection did not close'));
    this.listenLater();
  }

  private listenLater() {
    this.reconnectTimer = setTimeout(() => {
      if (this.stopped) return;
      this.listen().catch((err: unknown) => {
        this.log.warn({ err }, "the other instances' events are not received yet: trying again");
        this.listenLater();
      });
    }, this.timings.retryMs);
  }

  private deliverFromOthers(payload: string) {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch (err) {
      this.log.error({ err }, 'an event notification that is not JSON was dropped');
      return;
    }
    if (envelope.from === this.instance) return;
    for (const message of envelope.messages) {
      this.received++;
      this.local.publish(message);
    }
  }
}

/** The messages as JSON envelopes of at most MAX_PAYLOAD_BYTES each (with the messages each holds), and those too large for any. */
function batches(from: string, messages: BusMessage[]) {
  const groups: Array<{ payload: string; messages: BusMessage[] }> = [];
  const tooLarge: BusMessage[] = [];
  const envelope = (items: string[]) => `{"from":${JSON.stringify(from)},"messages":[${items.join(',')}]}`;
  const overhead = Buffer.byteLength(envelope([]));
  let part: string[] = [];
  let held: BusMessage[] = [];
  let size = overhead;
  for (const message of messages) {
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json) + 1;
    if (overhead + bytes > MAX_PAYLOAD_BYTES) {
      tooLarge.push(message);
      continue;
    }
    if (size + bytes > MAX_PAYLOAD_BYTES) {
      groups.push({ payload: envelope(part), messages: held });
      part = [];
      held = [];
      size = overhead;
    }
    part.push(json);
    held.push(message);
    size += bytes;
  }
  if (part.length) groups.push({ payload: envelope(part), messages: held });
  return { groups, tooLarge };
}
