import { z } from 'zod';
import { defineCall } from '../call.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { MAX_RECORD_ID, recordId } from '../ids.js';
import { pageParams, requiredText } from '../rules.js';
import { alert, alertUsers } from './alerts.js';

const tag = 'webhooks';

/**
 * Webhooks (issue 26, docs/webhooks.md): an organisation's HTTPS (or, where the deployment allows,
 * private) receivers of signed JSON events. Version 1 of the payload below is a public contract:
 * fields may be added, never renamed or removed, within a version.
 */
export const WEBHOOK_VERSION = 1;

export const WEBHOOK_EVENTS = [
  'panel.online',
  'panel.offline',
  'command.result',
  'task.progress',
  'task.finished',
  'alert.raised',
  'alert.acknowledged',
  'alert.cleared',
  /** Sent by "Send a test event" only. */
  'ping',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
/** What a webhook may subscribe to (ping is always delivered on request). */
export const SUBSCRIBABLE_EVENTS = WEBHOOK_EVENTS.filter((e) => e !== 'ping');

/** Request headers of every delivery. */
export const WEBHOOK_HEADERS = {
  /** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the webhook's secret>`. */
  signature: 'PanelFleet-Signature',
  event: 'PanelFleet-Event',
  /** The delivery's id: the same on every retry of one delivery. */
  delivery: 'PanelFleet-Delivery',
} as const;
/** A receiver should refuse a signature older than this (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Retries back off exponentially (30 s, 1 min, 2 min, ... capped at 1 h) for up to this long. */
export const WEBHOOK_RETRY_HOURS = 24;
/** Each attempt waits at most this long for an answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Deliveries that fail this many times in a row (after their retries) disable the webhook; its owner gets a mail. */
export const WEBHOOK_DISABLE_AFTER = 20;
/**
 * Alerts one `alert.*` delivery lists at most; `total` counts them all. The alerts one batch
 * window changed reach each webhook as one delivery (docs/webhooks.md, "Alert events").
 */
export const WEBHOOK_MAX_ALERTS = 1000;

const deviceRef = z.object({ id: z.number().int(), key: z.string(), name: z.string() });

/** The JSON body of every delivery. */
export const webhookPayload = z.object({
  version: z.literal(WEBHOOK_VERSION),
  /** The event's id (UUID): a receiver that saw it before should ignore it (retries resend it). */
  id: z.string(),
  type: z.enum(WEBHOOK_EVENTS),
  /** ISO 8601, UTC. */
  occurredAt: z.string(),
  organisationId: z.number().int(),
  data: z.union([
    z.object({ device: deviceRef, online: z.boolean() }),
    z.object({
      device: deviceRef,
      commandId: z.string(),
      order: z.string(),
      status: z.enum(['succeeded', 'failed', 'expired']),
      detail: z.string(),
    }),
    z.object({
      task: z.object({ kind: z.string(), id: z.string() }),
      done: z.number().int(),
      failed: z.number().int(),
      total: z.number().int(),
      finished: z.boolean(),
    }),
    /** `alert.*`: the alerts of one batch window, by id, at most WEBHOOK_MAX_ALERTS; `total` counts them all. */
    z.object({ alerts: z.array(alert), total: z.number().int() }),
    z.object({ message: z.string() }),
  ]),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;

export const webhook = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** Why it was turned off by the server (repeated failure), or null. */
  disabledReason: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  lastDeliveryAt: z.number().int().nullable(),
  lastStatus: z.number().int().nullable(),
  createdBy: z.string(),
  createdAt: z.number().int(),
});
export type Webhook = z.infer<typeof webhook>;

export const webhookInput = z.object({
  id: z.number().int().min(1).max(MAX_RECORD_ID).optional(),
  name: requiredText('webhook.nameNull', 64),
  url: z
    .string({ error: 'webhook.urlInvalid' })
    .trim()
    .max(2000, { error: 'webhook.urlInvalid' })
    .url({ error: 'webhook.urlInvalid' })
    .refine((u) => /^https?:\/\//i.test(u), { error: 'webhook.urlInvalid' }),
  enabled: z.boolean().default(true),
  events: z
    .array(z.enum(SUBSCRIBABLE_EVENTS as [WebhookEventType, ...WebhookEventType[]]))
    .max(20)
    .default([]),
});
export type WebhookInput = z.output<typeof webhookInput>;

const idParam = z.object({ id: recordId('common.invalidId') });

export const listWebhooks = defineCall({
  method: 'GET',
  path: '/webhooks',
  summary: "One page of the caller's organisation's webhooks",
  tag,
  access: alertUsers,
  params: pageParams,
  reply: listReply(webhook),
});

export const saveWebhook = defineCall({
  method: 'POST',
  path: '/webhooks/save',
  summary:
    'Create a webhook (no id; the reply carries its signing secret, shown this once) or change one; a URL the deployment does not allow (link-local, metadata, private unless allowed) is refused; JSON body',
  tag,
  access: alertUsers,
  params: webhookInput,
  reply: itemReply(webhook.extend({ secret: z.string().optional() })),
});

export const deleteWebhook = defineCall({
  method: 'POST',
  path: '/webhooks/delete',
  summary: 'Delete a webhook and its delivery log',
  tag,
  access: alertUsers,
  params: idParam,
  reply: emptyReply,
});

export const rotateWebhookSecret = defineCall({
  method: 'POST',
  path: '/webhooks/rotateSecret',
  summary: 'A new signing secret for a webhook (shown this once); the old one stops signing at once',
  tag,
  access: alertUsers,
  params: idParam,
  reply: itemReply(z.object({ secret: z.string() })),
});

export const testWebhook = defineCall({
  method: 'POST',
  path: '/webhooks/test',
  summary: 'Send a signed `ping` event to a webhook now; the reply tells what the receiver answered',
  tag,
  access: alertUsers,
  params: idParam,
  reply: itemReply(z.object({ deliveryId: z.number().int() })),
});

export const DELIVERY_STATES = ['pending', 'succeeded', 'retrying', 'failed'] as const;

export const webhookDelivery = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  eventId: z.string(),
  eventType: z.enum(WEBHOOK_EVENTS),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  /** The last attempt's HTTP status, or null (no answer). */
  httpStatus: z.number().int().nullable(),
  /** The last attempt's time to answer. */
  durationMs: z.number().int().nullable(),
  /** Why the last attempt failed, in words (timeout, refused address, status). */
  error: z.string().nullable(),
  createdAt: z.number().int(),
  lastAttemptAt: z.number().int().nullable(),
  nextAttemptAt: z.number().int().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export const listWebhookDeliveries = defineCall({
  method: 'GET',
  path: '/webhooks/deliveries',
  summary: "One page of a webhook's delivery log, newest first",
  tag,
  access: alertUsers,
  params: pageParams.extend({
    webhookId: idParam.shape.id,
    state: z.enum(DELIVERY_STATES, { error: 'webhook.stateInvalid' }).optional(),
  }),
  reply: listReply(webhookDelivery),
});

export const redeliver = defineCall({
  method: 'POST',
  path: '/webhooks/redeliver',
  summary: 'Send a delivery again now (same event id, a new signature)',
  tag,
  access: alertUsers,
  params: idParam,
  reply: itemReply(z.object({ deliveryId: z.number().int() })),
});

/** One attempt of a delivery, as the server logged it. */
export const webhookAttempt = z.object({
  at: z.number().int(),
  /** The receiver's HTTP status, or null (no answer: timeout, refused connection, address not allowed). */
  httpStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** Why it failed, in words; null for a success. */
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;

export const listDeliveryAttempts = defineCall({
  method: 'GET',
  path: '/webhooks/attempts',
  summary: "Every attempt of one of the caller's organisation's deliveries, oldest first (at most 100)",
  tag,
  access: alertUsers,
  params: z.object({ deliveryId: idParam.shape.id }),
  reply: listReply(webhookAttempt),
});
