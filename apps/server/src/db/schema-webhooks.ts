import type { Generated } from 'kysely';

/** An organisation's webhook (migration 040). */
export interface WebhooksTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  url: string;
  /** 1 on, 0 off (by its owner, or by the server after repeated failure: disabled_reason says). */
  enabled: number;
  /** JSON array of the event types it subscribes to. */
  events: string;
  /** The signing secret, sealed with a key derived from the password pepper (security/sealed.ts). */
  secret_sealed: string;
  disabled_reason: string | null;
  consecutive_failures: number;
  last_delivery_at: number | null;
  last_status: number | null;
  created_by: number;
  created_by_name: string;
  /** The creator's console language when it was made: the language of the mail when it is disabled. */
  created_language: string;
  created_at: number;
  updated_at: number;
}

/** One event to one webhook: the outbox row and its delivery state (migration 040). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  org_id: number;
  /** The event's id: deterministic for events every instance hears, so each is delivered once. */
  event_id: string;
  event_type: string;
  /** The JSON body, the same on every attempt. */
  payload: string;
  state: 'pending' | 'retrying' | 'succeeded' | 'failed';
  attempts: number;
  http_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: number;
  /** No retry after this time: the delivery fails. */
  retry_until: number;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  /** The instance making the current attempt, and until when its claim holds. */
  claim_owner: string | null;
  claim_until: number | null;
}

/** Every attempt of a delivery: time, status, time to answer, error in words (migration 040). */
export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  at: number;
  http_status: number | null;
  duration_ms: number | null;
  error: string | null;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
