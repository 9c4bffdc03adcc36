import { webhooks as contract, type alerts } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { DeliveryRepository } from './delivery-repository.js';
import type { WebhookRepository } from './repository.js';
import { eventId as makeEventId } from './signer.js';

type EventType = contract.WebhookEventType;
type Data = contract.WebhookPayload['data'];
export type AlertEventType = Extract<EventType, `alert.${string}`>;

/** One changed alert for `emitAlerts`: its organisation (the rule's) and the webhooks its rule names. */
export interface AlertItem {
  orgId: number;
  alert: alerts.Alert;
  alsoTo: number[];
}

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
   * The alerts one batch window changed (an evaluation round, one user's action) as ONE delivery
   * per receiving webhook: the webhooks of each alert's organisation subscribed to `type` get all
   * of that organisation's alerts, a webhook a rule names (enabled, of the rule's organisation)
   * gets the alerts of the rules naming it. Each lists at most WEBHOOK_MAX_ALERTS, by id; `total`
   * counts them all. Returns the deliveries written.
   */
  async emitAlerts(type: AlertEventType, items: AlertItem[]): Promise<number> {
    const byOrg = new Map<number, AlertItem[]>();
    for (const item of items) {
      const list = byOrg.get(item.orgId);
      if (list) list.push(item);
      else byOrg.set(item.orgId, [item]);
    }
    const now = this.deps.clock.now();
    const id = makeEventId();
    const rows: DeliveryRow[] = [];
    for (const [orgId, list] of byOrg) {
      list.sort((a, b) => a.alert.id - b.alert.id);
      const [subscribed, named] = await Promise.all([
        this.deps.webhooks.enabledOf([orgId]),
        this.deps.webhooks.namedOf(orgId, [...new Set(list.flatMap((i) => i.alsoTo))]),
      ]);
      const perWebhook = new Map<number, AlertItem[]>();
      for (const w of subscribed) if (subscribes(w.events, type)) perWebhook.set(w.id, list);
      for (const w of named)
        if (!perWebhook.has(w.id))
          perWebhook.set(
            w.id,
            list.filter((i) => i.alsoTo.includes(w.id)),
          );
      for (const [webhookId, alerts] of perWebhook)
        rows.push(
          deliveryRow({ id: webhookId, orgId }, id, type, now, now, 0, {
            alerts: alerts.slice(0, contract.WEBHOOK_MAX_ALERTS).map((i) => i.alert),
            total: alerts.length,
          }),
        );
    }
    return this.insert(rows, 0);
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
    return this.insert(
      receivers.map((t) => deliveryRow(t, id, event.type, event.occurredAt ?? now, now, dueInMs, event.data)),
      dueInMs,
    );
  }

  private async insert(rows: DeliveryRow[], dueInMs: number): Promise<number> {
    if (!rows.length) return 0;
    const written = await this.deps.deliveries.insert(rows);
    if (written && !dueInMs) this.deps.wake();
    return written;
  }
}

type DeliveryRow = Parameters<DeliveryRepository['insert']>[0][number];

/** One webhook's delivery of an event, due `dueInMs` from now, with its payload. */
function deliveryRow(
  target: WebhookTarget,
  eventId: string,
  type: EventType,
  occurredAt: number,
  now: number,
  dueInMs: number,
  data: Data,
): DeliveryRow {
  const payload: contract.WebhookPayload = {
    version: contract.WEBHOOK_VERSION,
    id: eventId,
    type,
    occurredAt: new Date(occurredAt).toISOString(),
    organisationId: target.orgId,
    data,
  };
  return {
    webhook_id: target.id,
    org_id: target.orgId,
    event_id: eventId,
    event_type: type,
    payload: JSON.stringify(payload),
    state: 'pending',
    attempts: 0,
    created_at: now,
    retry_until: now + contract.WEBHOOK_RETRY_HOURS * HOUR,
    next_attempt_at: now + dueInMs,
  };
}

/** Whether a webhook's stored subscriptions (a JSON array) hold the event type. */
export const subscribes = (events: string, type: EventType): boolean =>
  (JSON.parse(events) as string[]).includes(type);
