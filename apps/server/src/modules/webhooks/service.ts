import { webhooks as contract, type Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { pageOffset } from '../../http/access.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { OperationLog } from '../operation-log/repository.js';
import { checkTarget, OutboundRefused, type OutboundPolicy } from '../../security/outbound.js';
import type { SecretSealer } from '../../security/sealed.js';
import type { DeliveryRecord, DeliveryRepository } from './delivery-repository.js';
import { FALLBACK_MS, type Outbox } from './outbox.js';
import { MAX_WEBHOOKS_PER_ORGANISATION, webhookOwner } from './policy.js';
import type { WebhookRecord, WebhookRepository } from './repository.js';
import { newSecret } from './signer.js';

const HOUR = 3_600_000;

/**
 * An organisation's webhooks (issue 26): made and changed by its users, each with a signing
 * secret shown once, addresses checked by the outbound guard when saved (and again on every
 * attempt), test events and redeliveries sent at once.
 */
export class WebhookService {
  constructor(
    private readonly deps: {
      webhooks: WebhookRepository;
      deliveries: DeliveryRepository;
      outbox: Outbox;
      sealer: SecretSealer;
      clock: Clock;
      log: OperationLog;
      outbound: OutboundPolicy;
      /** Claims the delivery and attempts it now (this instance); false if another has it. */
      attemptNow: (orgId: number, deliveryId: number) => Promise<boolean>;
      /** Tells every instance that who wants which events may have changed. */
      changed: () => void;
    },
  ) {}

  async list(caller: SessionUser, page: { start: number; size: number }) {
    const { rows, total } = await this.deps.webhooks.page(
      webhookOwner(caller),
      pageOffset(page.start, page.size),
      page.size,
    );
    return { rows: rows.map(toWebhook), total };
  }

  async save(
    caller: SessionUser,
    input: contract.WebhookInput,
    language: Language,
    ip: string,
  ): Promise<contract.Webhook & { secret?: string }> {
    const orgId = webhookOwner(caller);
    await this.checkAddress(input.url);
    const now = this.deps.clock.now();
    const events = JSON.stringify([...new Set(input.events)]);
    if (input.id !== undefined) {
      const existing = await this.find(orgId, input.id);
      const enabled = input.enabled ? 1 : 0;
      // Turned on again by its owner: the failure run starts over.
      const restarted = enabled === 1 && existing.enabled === 0;
      await this.deps.webhooks.update(orgId, existing.id, {
        name: input.name,
        url: input.url,
        enabled,
        events,
        updated_at: now,
        ...(restarted ? { disabled_reason: null, consecutive_failures: 0 } : {}),
      });
      this.deps.changed();
      await this.deps.log.recordBy(caller, ip, 'webhook.update', { k: 'name', v: { name: input.name } });
      return toWebhook(await this.find(orgId, existing.id));
    }
    const secret = newSecret();
    const inserted = await this.deps.webhooks.insertWithinQuota(
      {
        org_id: orgId,
        name: input.name,
        url: input.url,
        enabled: input.enabled ? 1 : 0,
        events,
        secret_sealed: this.deps.sealer.seal(secret),
        disabled_reason: null,
        consecutive_failures: 0,
        last_delivery_at: null,
        last_status: null,
        created_by: caller.id,
        created_by_name: caller.userName,
        created_language: language,
        created_at: now,
        updated_at: now,
      },
      MAX_WEBHOOKS_PER_ORGANISATION,
    );
    if (!inserted.inserted) throw new Refusal('webhook.tooMany', 'conflict');
    this.deps.changed();
    await this.deps.log.recordBy(caller, ip, 'webhook.add', { k: 'name', v: { name: input.name } });
    return { ...toWebhook(await this.find(orgId, inserted.id)), secret };
  }

  async delete(caller: SessionUser, id: number, ip: string) {
    const orgId = webhookOwner(caller);
    const existing = await this.find(orgId, id);
    if (!(await this.deps.webhooks.delete(orgId, existing.id)))
      throw new Refusal('webhook.notFound', 'notFound');
    this.deps.changed();
    await this.deps.log.recordBy(caller, ip, 'webhook.delete', { k: 'name', v: { name: existing.name } });
  }

  async rotateSecret(caller: SessionUser, id: number, ip: string): Promise<string> {
    const orgId = webhookOwner(caller);
    const existing = await this.find(orgId, id);
    const secret = newSecret();
    await this.deps.webhooks.update(orgId, existing.id, {
      secret_sealed: this.deps.sealer.seal(secret),
      updated_at: this.deps.clock.now(),
    });
    await this.deps.log.recordBy(caller, ip, 'webhook.rotateSecret', {
      k: 'name',
      v: { name: existing.name },
    });
    return secret;
  }

  /** A signed ping, attempted before the reply (its outcome is in the delivery log). */
  async test(caller: SessionUser, id: number): Promise<number> {
    const orgId = webhookOwner(caller);
    const existing = await this.find(orgId, id);
    await this.checkAddress(existing.url);
    const deliveryId = await this.deps.outbox.ping(existing.id, orgId);
    await this.deps.attemptNow(orgId, deliveryId);
    return deliveryId;
  }

  async deliveries(
    caller: SessionUser,
    params: { start: number; size: number; webhookId: number; state?: DeliveryRecord['state'] },
  ) {
    const orgId = webhookOwner(caller);
    const webhook = await this.find(orgId, params.webhookId);
    const { rows, total } = await this.deps.deliveries.page(
      orgId,
      webhook.id,
      params.state,
      pageOffset(params.start, params.size),
      params.size,
    );
    return { rows: rows.map(toDelivery), total };
  }

  /** Every attempt of a delivery, oldest first. */
  async attempts(caller: SessionUser, deliveryId: number): Promise<contract.WebhookAttempt[]> {
    const orgId = webhookOwner(caller);
    const delivery = await this.deps.deliveries.find(orgId, deliveryId);
    if (!delivery) throw new Refusal('webhook.deliveryNotFound', 'notFound');
    const rows = await this.deps.deliveries.attempts(orgId, delivery.id, 100);
    return rows.map((r) =>
      contract.webhookAttempt.parse(Object.fromEntries(ATTEMPT_COLUMNS.map((c) => [camel(c), r[c]]))),
    );
  }

  /** The delivery again now: same event id and body, a new signature, a new 24-hour retry window. */
  async redeliver(caller: SessionUser, id: number): Promise<number> {
    const orgId = webhookOwner(caller);
    const delivery = await this.deps.deliveries.find(orgId, id);
    if (!delivery) throw new Refusal('webhook.deliveryNotFound', 'notFound');
    const webhook = await this.find(orgId, delivery.webhook_id);
    await this.checkAddress(webhook.url);
    const now = this.deps.clock.now();
    await this.deps.deliveries.requeue(orgId, delivery.id, now + FALLBACK_MS, now + 24 * HOUR);
    await this.deps.attemptNow(orgId, delivery.id);
    return delivery.id;
  }

  private async checkAddress(url: string) {
    try {
      await checkTarget(url, this.deps.outbound);
    } catch (error) {
      if (error instanceof OutboundRefused) throw new Refusal('webhook.urlNotAllowed', 'invalid');
      throw error;
    }
  }

  private async find(orgId: number, id: number): Promise<WebhookRecord> {
    const row = await this.deps.webhooks.find(orgId, id);
    if (!row) throw new Refusal('webhook.notFound', 'notFound');
    return row;
  }
}

export function toWebhook(r: WebhookRecord): contract.Webhook {
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    enabled: r.enabled === 1,
    events: JSON.parse(r.events) as contract.WebhookEventType[],
    disabledReason: r.disabled_reason,
    consecutiveFailures: r.consecutive_failures,
    lastDeliveryAt: r.last_delivery_at === null ? null : Number(r.last_delivery_at),
    lastStatus: r.last_status,
    createdBy: r.created_by_name,
    createdAt: Number(r.created_at),
  };
}

/** The delivery log's columns, each shown under its camel-case name (the contract's `webhookDelivery`). */
const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'event_id',
  'event_type',
  'state',
  'attempts',
  'http_status',
  'duration_ms',
  'error',
  'created_at',
  'last_attempt_at',
  'next_attempt_at',
] as const;

const ATTEMPT_COLUMNS = ['at', 'http_status', 'duration_ms', 'error'] as const;

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export function toDelivery(r: DeliveryRecord): contract.WebhookDelivery {
  return contract.webhookDelivery.parse(Object.fromEntries(DELIVERY_COLUMNS.map((c) => [camel(c), r[c]])));
}
