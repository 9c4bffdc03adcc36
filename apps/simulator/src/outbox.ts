import { device } from '@panelfleet/contract';

/** What a panel keeps until a receipt names it (protocol 5.9). */
export type KeptKind = 'ack' | 'usage' | 'log' | 'play';

interface Kept {
  kind: KeptKind;
  payload: object;
  firstSentAt: number;
  attempts: number;
  dueAt: number;
}

export interface OutboxOptions {
  /** Publishes a message (nothing when not connected: it stays kept). */
  send(kind: KeptKind, payload: object): Promise<void>;
  /** A clock that only runs forward (the panel's uptime clock, not its wall clock). */
  now(): number;
  log(message: string): void;
  resendFirstMs?: number;
  resendMaxMs?: number;
  maxMessages?: number;
  maxAgeMs?: number;
}

/** The receipt list that names a message, and its id there. */
function receiptKey(kind: KeptKind, payload: object): string {
  if (kind === 'ack') {
    const ack = payload as device.CommandAck;
    return `${device.isFinishedAck(ack) ? 'finished' : 'acks'}:${ack.id}`;
  }
  const list = { usage: 'usage', log: 'logs', play: 'plays' }[kind];
  return `${list}:${(payload as { id: string }).id}`;
}

/**
 * The final acknowledgements, usage reports and logs a panel has sent and the server has not yet
 * confirmed (protocol 5.9). Each is sent again when no receipt named it for a while (30 s, then
 * doubling to 5 min, jittered) and at once after a reconnect; at most 1,000 are kept, none longer
 * than 7 days. Kept across reboots (the simulated panel object outlives its connections). Only
 * while the server confirms: when the broker refuses the receipt subscription, nothing is kept.
 */
export class Outbox {
  private kept = new Map<string, Kept>();
  /** The broker granted the receipt subscription: the server confirms what it stores. */
  confirming = false;
  /** Messages given up (bound or age), for tests and logs. */
  givenUp = 0;

  constructor(private readonly options: OutboxOptions) {}

  get size() {
    return this.kept.size;
  }

  /** Sends a message and, while the server confirms, keeps it until a receipt names it. */
  async send(kind: KeptKind, payload: object) {
    if (this.confirming) this.keep(kind, payload);
    await this.options.send(kind, payload);
  }

  /** The receipt subscription's answer after each connect. */
  setConfirming(confirming: boolean) {
    this.confirming = confirming;
    if (!confirming && this.kept.size) {
      this.options.log(`the server sends no receipts: ${this.kept.size} kept messages are not sent again`);
      this.kept.clear();
    }
  }

  /** A receipt arrived: what it names is stored and need not be sent again. */
  confirm(receipt: device.Receipt) {
    for (const list of device.RECEIPT_LISTS)
      for (const id of receipt[list] ?? []) this.kept.delete(`${list}:${id}`);
  }

  /** Sends again what waited long enough for a receipt (called every second or so). */
  async resendDue() {
    const now = this.options.now();
    this.expire(now);
    for (const kept of [...this.kept.values()]) if (kept.dueAt <= now) await this.resend(kept, now);
  }

  /** After a reconnect: everything kept goes again at once, oldest first. */
  async resendAll() {
    const now = this.options.now();
    this.expire(now);
    for (const kept of [...this.kept.values()]) await this.resend(kept, now);
  }

  private keep(kind: KeptKind, payload: object) {
    const now = this.options.now();
    const key = receiptKey(kind, payload);
    const before = this.kept.get(key);
    this.kept.delete(key);
    this.kept.set(key, {
      kind,
      payload,
      firstSentAt: before?.firstSentAt ?? now,
      attempts: 1,
      dueAt: now + this.wait(1),
    });
    const excess = this.kept.size - (this.options.maxMessages ?? device.KEEP_MAX_MESSAGES);
    if (excess > 0) {
      for (const oldest of [...this.kept.keys()].slice(0, excess)) this.kept.delete(oldest);
      this.givenUp += excess;
      this.options.log(`outbox full: the ${excess} oldest unconfirmed messages given up`);
    }
  }

  private async resend(kept: Kept, now: number) {
    kept.attempts++;
    kept.dueAt = now + this.wait(kept.attempts);
    await this.options.send(kept.kind, kept.payload);
  }

  private wait(attempt: number) {
    return device.backoffDelay(
      attempt,
      this.options.resendFirstMs ?? device.RESEND_FIRST_MS,
      this.options.resendMaxMs ?? device.RESEND_MAX_MS,
    );
  }

  private expire(now: number) {
    const maxAge = this.options.maxAgeMs ?? device.KEEP_MAX_AGE_MS;
    for (const [key, kept] of this.kept)
      if (now - kept.firstSentAt > maxAge) {
        this.kept.delete(key);
        this.givenUp++;
      }
  }
}
