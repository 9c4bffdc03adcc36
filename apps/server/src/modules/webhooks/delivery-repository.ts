import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { WebhookDeliveriesTable } from '../../db/schema-webhooks.js';

export type DeliveryRecord = Selectable<WebhookDeliveriesTable>;

/** A claimed delivery with what its attempt needs of its webhook. */
export type ClaimedDelivery = DeliveryRecord & { url: string; secret_sealed: string };

export interface AttemptOutcome {
  state: DeliveryRecord['state'];
  answerStatus: number | null;
  durationMs: number | null;
  error: string | null;
  at: number;
  nextAttemptAt: number | null;
}

/**
 * The webhook outbox: delivery rows written when an event happens, claimed by one instance at a
 * time for each attempt (a claim with an owner and an expiry: one that dies mid-attempt lets it
 * go when the claim lapses), and the log of every attempt.
 */
export class DeliveryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Writes the deliveries; one whose (webhook, event id) is already there is skipped, so an event
   * that several instances hear is delivered once. Returns how many were written.
   */
  async insert(rows: Array<Insertable<WebhookDeliveriesTable>>): Promise<number> {
    if (!rows.length) return 0;
    const written = await this.db
      .insertInto('webhook_deliveries')
      .values(rows)
      .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
      .returning('id')
      .execute();
    return written.length;
  }

  /** The webhooks among `webhookIds` that already have a delivery of one of the event ids. */
  async alreadyHave(webhookIds: number[], eventIds: string[]): Promise<Set<number>> {
    if (!webhookIds.length || !eventIds.length) return new Set();
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select('webhook_id')
      .where('webhook_id', 'in', webhookIds)
      .where('event_id', 'in', eventIds)
      .execute();
    return new Set(rows.map((r) => r.webhook_id));
  }

  /**
   * Claims up to `limit` due deliveries of enabled webhooks (none of `busyWebhooks`) for `owner`
   * until `until`. On PostgreSQL the candidates are locked with SKIP LOCKED, so instances claiming
   * at once take different rows; on SQLite the one connection runs one statement at a time.
   */
  async claimDue(
    owner: string,
    now: number,
    until: number,
    limit: number,
    busyWebhooks: number[],
  ): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    return this.db.transaction().execute(async (trx) => {
      let candidates = trx
        .selectFrom('webhook_deliveries')
        .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
        .select('webhook_deliveries.id')
        .where('webhook_deliveries.state', 'in', ['pending', 'retrying'])
        .where('webhook_deliveries.next_attempt_at', '<=', now)
        .where((eb) =>
          eb.or([
            eb('webhook_deliveries.claim_until', 'is', null),
            eb('webhook_deliveries.claim_until', '<=', now),
          ]),
        )
        .where('webhooks.enabled', '=', 1)
        .orderBy('webhook_deliveries.next_attempt_at')
        .limit(limit);
      if (busyWebhooks.length)
        candidates = candidates.where('webhook_deliveries.webhook_id', 'not in', busyWebhooks);
      if (this.dialect === 'postgres') candidates = candidates.forUpdate('webhook_deliveries').skipLocked();
      const ids = (await candidates.execute()).map((r) => r.id);
      if (!ids.length) return [];
      return this.claim(trx, ids, owner, now, until);
    });
  }

  /** Claims one delivery of the organisation now, due or not (a test event, a redelivery). */
  async claimOne(orgId: number, id: number, owner: string, now: number, until: number) {
    const [row] = await this.db.transaction().execute(async (trx) => {
      const found = await trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('id', '=', id)
        .where('org_id', '=', orgId)
        .executeTakeFirst();
      return found ? this.claim(trx, [found.id], owner, now, until) : [];
    });
    return row;
  }

  private async claim(
    trx: Kysely<Database>,
    ids: number[],
    owner: string,
    now: number,
    until: number,
  ): Promise<ClaimedDelivery[]> {
    const claimed = await trx
      .updateTable('webhook_deliveries')
      .set({ claim_owner: owner, claim_until: until })
      .where('id', 'in', ids)
      .where((eb) => eb.or([eb('claim_until', 'is', null), eb('claim_until', '<=', now)]))
      .returning('id')
      .execute();
    if (!claimed.length) return [];
    return trx
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .selectAll('webhook_deliveries')
      .select(['webhooks.url', 'webhooks.secret_sealed'])
      .where(
        'webhook_deliveries.id',
        'in',
        claimed.map((c) => c.id),
      )
      .execute();
  }

  /** Lets claimed rows go unattempted (the instance has no room for them now). */
  async release(ids: number[], owner: string) {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ claim_owner: null, claim_until: null })
      .where('id', 'in', ids)
      .where('claim_owner', '=', owner)
      .execute();
  }

  /**
   * Records an attempt of a delivery this instance claimed and lets the claim go; the webhook's
   * last status and its run of failed deliveries follow (a success ends the run, a delivery that
   * failed for good adds one). Returns the webhook's run of failures, or null if the claim was lost.
   */
  async recordAttempt(delivery: ClaimedDelivery, owner: string, outcome: AttemptOutcome) {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('webhook_deliveries')
        .set({
          state: outcome.state,
          attempts: delivery.attempts + 1,
          http_status: outcome.answerStatus,
          duration_ms: outcome.durationMs,
          error: outcome.error,
          last_attempt_at: outcome.at,
          next_attempt_at: outcome.nextAttemptAt,
          claim_owner: null,
          claim_until: null,
        })
        .where('id', '=', delivery.id)
        .where('claim_owner', '=', owner)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return null;
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          at: outcome.at,
          http_status: outcome.answerStatus,
          duration_ms: outcome.durationMs,
          error: outcome.error,
        })
        .execute();
      let query = trx
        .updateTable('webhooks')
        .set({ last_delivery_at: outcome.at, last_status: outcome.answerStatus })
        .where('id', '=', delivery.webhook_id);
      if (outcome.state === 'succeeded') query = query.set({ consecutive_failures: 0 });
      if (outcome.state === 'failed')
        query = query.set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }));
      const webhook = await query.returning(['consecutive_failures']).executeTakeFirst();
      return webhook?.consecutive_failures ?? null;
    });
  }

  /**
   * Turns the webhook off for repeated failure unless it already is; true when this call did it
   * (so one instance mails its owner).
   */
  async disable(webhookId: number, reason: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('webhooks')
      .set({ enabled: 0, disabled_reason: reason, updated_at: now })
      .where('id', '=', webhookId)
      .where('enabled', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async page(
    orgId: number,
    webhookId: number,
    state: DeliveryRecord['state'] | undefined,
    offset: number,
    size: number,
  ) {
    let scoped = this.db
      .selectFrom('webhook_deliveries')
      .where('org_id', '=', orgId)
      .where('webhook_id', '=', webhookId);
    if (state) scoped = scoped.where('state', '=', state);
    const [rows, total] = await Promise.all([
      scoped.selectAll().orderBy('id', 'desc').limit(size).offset(offset).execute(),
      scoped.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  async idOf(webhookId: number, eventId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhookId)
      .where('event_id', '=', eventId)
      .executeTakeFirst();
    return row?.id;
  }

  find(orgId: number, id: number): Promise<DeliveryRecord | undefined> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Puts a delivery of the organisation back in the queue, due at `due`, with a new retry window. */
  async requeue(orgId: number, id: number, due: number, retryUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', next_attempt_at: due, retry_until: retryUntil })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The attempts of a delivery of the organisation, oldest first (at most `limit`). */
  attempts(orgId: number, deliveryId: number, limit: number) {
    return this.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select([
        'webhook_attempts.at',
        'webhook_attempts.http_status',
        'webhook_attempts.duration_ms',
        'webhook_attempts.error',
      ])
      .where('webhook_deliveries.org_id', '=', orgId)
      .where('webhook_attempts.delivery_id', '=', deliveryId)
      .orderBy('webhook_attempts.id')
      .limit(limit)
      .execute();
  }

  /** Deletes finished deliveries (and their attempts) made before `before`; returns how many. */
  async prune(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('webhook_deliveries')
      .where('created_at', '<', before)
      .where('state', 'in', ['succeeded', 'failed'])
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
