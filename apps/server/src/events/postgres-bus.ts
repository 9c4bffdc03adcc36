import crypto from 'node:crypto';
import pg from 'pg';
import { InProcessEventBus, type BusListener, type BusMessage, type EventBus } from './bus.js';

export interface SharedBusLog {
  warn(obj: object, message: string): void;
  error(obj: object, message: string): void;
}

/** Sends one notification on a channel (through the server's pool). */
export type Notify = (channel: string, payload: string) => Promise<void>;

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; a batch stays under it. */
const MAX_PAYLOAD_BYTES = 7_500;
const RECONNECT_MS = 1000;

interface Envelope {
  from: string;
  messages: BusMessage[];
}

/**
 * The bus of several instances on one PostgreSQL database (issue 18): what an instance publishes
 * reaches its own subscribers at once, in order, and the other instances' through LISTEN/NOTIFY on
 * a channel of the schema. Messages of one tick travel together in as few notifications as fit.
 * A message every instance publishes itself (`local`: presence, which each reads from the broker)
 * stays in its instance. While the listening connection is down (the database restarted) other
 * instances' events are missed, as a console that reloads would miss them; it is logged.
 */
export class PostgresEventBus implements EventBus {
  private readonly local: InProcessEventBus;
  private readonly instance = crypto.randomUUID();
  private readonly channel: string;
  private outbox: BusMessage[] = [];
  private flushing: Promise<void> | undefined;
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Messages received from other instances (tests read it). */
  received = 0;

  constructor(
    private readonly url: string,
    schema: string,
    private readonly notify: Notify,
    private readonly log: SharedBusLog,
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
    await this.flushing;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end();
  }

  publish(message: BusMessage) {
    this.local.publish(message);
    // After stop the instance is shutting down: what it still publishes stays in it.
    if (this.stopped || (message.kind === 'live' && message.local)) return;
    this.outbox.push(message);
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  subscribe(listener: BusListener) {
    return this.local.subscribe(listener);
  }

  private async flush() {
    const messages = this.outbox;
    this.outbox = [];
    this.flushing = undefined;
    const { payloads, tooLarge } = batches(this.instance, messages);
    for (const message of tooLarge)
      this.log.error({ kind: message.kind }, 'an event too large to share stayed in its instance');
    for (const payload of payloads) {
      try {
        await this.notify(this.channel, payload);
      } catch (err) {
        this.log.error({ err, channel: this.channel }, 'events not shared with the other instances');
      }
    }
  }

  private async listen() {
    const client = new pg.Client({ connectionString: this.url });
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
    this.listener = client;
  }

  private lost(client: pg.Client) {
    if (this.stopped || this.listener !== client) return;
    this.listener = undefined;
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
    }, RECONNECT_MS);
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

/** The messages as JSON envelopes of at most MAX_PAYLOAD_BYTES each, and those too large for any. */
function batches(from: string, messages: BusMessage[]) {
  const payloads: string[] = [];
  const tooLarge: BusMessage[] = [];
  const envelope = (items: string[]) => `{"from":${JSON.stringify(from)},"messages":[${items.join(',')}]}`;
  const overhead = Buffer.byteLength(envelope([]));
  let part: string[] = [];
  let size = overhead;
  for (const message of messages) {
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json) + 1;
    if (overhead + bytes > MAX_PAYLOAD_BYTES) {
      tooLarge.push(message);
      continue;
    }
    if (size + bytes > MAX_PAYLOAD_BYTES) {
      payloads.push(envelope(part));
      part = [];
      size = overhead;
    }
    part.push(json);
    size += bytes;
  }
  if (part.length) payloads.push(envelope(part));
  return { payloads, tooLarge };
}
