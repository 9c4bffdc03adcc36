import { webhooks as contract } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { DeliveryRepository } from './delivery-repository.js';
import type { WebhookRepository } from './repository.js';
import { eventId as makeEventId } from './signer.js';

type EventType = contract.WebhookEventType;
type Data = contract.WebhookPayload['data'];

const HOUR = 3_600_000;
/** A delivery its caller attempts at once is due for the workers only this much later. */
export const FALLBACK_MS = 60_000;

export interface WebhookTarget {
  id: number;
  orgId: number;
}

export interface OutboxEvent {
  type: EventType;
  data: Data;
  /** A deterministic key for an event every instance hears; a random id otherwise. */
  key?: string;
  /** Keys of the same event as heard at a neighbouring moment (presence windows): no second delivery. */
  sameAs?: string[];
  occurredAt?: number;
}

/**
 * Writes deliveries: one row per receiving webhook, due at once, in the database (the outbox).
 * Sending happens later, on whichever instance claims the row, never on the caller's path.
 */
export class Outbox {
  constructor(
    private readonly deps: {
      webhooks: WebhookRepository;
      deliveries: DeliveryRepository;
      clock: Clock;
      /** Tells this instance's worker there is work (it also polls). */
      wake: () => void;
    },
  ) {}

  /**
   * The contract's `emit`: the webhooks of `orgId` subscribed to `type`, plus those named in
   * `alsoTo` that belong to `orgId` (enabled ones).
   */
  async emit(orgId: number, type: EventType, data: Data, alsoTo: number[] = []): Promise<void> {
    const [subscribed, named] = await Promise.all([
      this.deps.webhooks.enabledOf([orgId]),
      this.deps.webhooks.namedOf(orgId, alsoTo),
    ]);
    const targets = new Map<number, number>();
    for (const w of subscribed) if (subscribes(w.events, type)) targets.set(w.id, w.org_id);
    for (const w of named) targets.set(w.id, w.org_id);
    await this.write(
      [...targets].map(([id, org]) => ({ id, orgId: org })),
      { type, data },
    );
  }

  /**
   * An event of a company: to its webhooks and those of the organisations whose scope holds it
   * (`targets`: found by `subscribersForCompany` when not given).
   */
  async emitForCompany(companyId: number, event: OutboxEvent, targets?: WebhookTarget[]): Promise<number> {
    return this.write(targets ?? (await this.subscribersForCompany(companyId, event.type)), event);
  }

  /** The webhooks subscribed to `type` that receive a company's events. */
  async subscribersForCompany(companyId: number, type: EventType): Promise<WebhookTarget[]> {
    const orgs = await this.deps.webhooks.receiversOfCompany(companyId);
    return (await this.deps.webhooks.enabledOf(orgs))
      .filter((w) => subscribes(w.events, type))
      .map((w) => ({ id: w.id, orgId: w.org_id }));
  }

  /**
   * A test event to one webhook, for the caller to attempt at once; due for the workers only a
   * minute later (should that attempt never be made). Returns its delivery's id.
   */
  async ping(webhookId: number, orgId: number): Promise<number> {
    const key = `ping:${webhookId}:${makeEventId()}`;
    await this.write(
      [{ id: webhookId, orgId }],
      { type: 'ping', data: { message: 'A test event from PanelFleet' }, key },
      FALLBACK_MS,
    );
    const id = await this.deps.deliveries.idOf(webhookId, makeEventId(key));
    if (id === undefined) throw new Error('the test delivery was not written');
    return id;
  }

  private async write(
    targets: Array<{ id: number; orgId: number }>,
    event: OutboxEvent,
    dueInMs = 0,
  ): Promise<number> {
    if (!targets.length) return 0;
    const id = makeEventId(event.key);
    let receivers = targets;
    if (event.sameAs?.length) {
      const seen = await this.deps.deliveries.alreadyHave(
        targets.map((t) => t.id),
        event.sameAs.map((k) => makeEventId(k)),
      );
      receivers = targets.filter((t) => !seen.has(t.id));
    }
    const now = this.deps.clock.now();
    const rows = receivers.map((t) => {
      const payload: contract.WebhookPayload = {
        version: contract.WEBHOOK_VERSION,
        id,
        type: event.type,
        occurredAt: new Date(event.occurredAt ?? now).toISOString(),
        organisationId: t.orgId,
        data: event.data,
      };
      return {
        webhook_id: t.id,
        org_id: t.orgId,
        event_id: id,
        event_type: event.type,
        payload: JSON.stringify(payload),
        state: 'pending' as const,
        attempts: 0,
        created_at: now,
        retry_until: now + contract.WEBHOOK_RETRY_HOURS * HOUR,
        next_attempt_at: now + dueInMs,
      };
    });
    const written = await this.deps.deliveries.insert(rows);
    if (written && !dueInMs) this.deps.wake();
    return written;
  }
}

/** Whether a webhook's stored subscriptions (a JSON array) hold the event type. */
export const subscribes = (events: string, type: EventType): boolean =>
  (JSON.parse(events) as string[]).includes(type);
