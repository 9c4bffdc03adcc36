import type { Clock } from '../../clock.js';
import { checkTarget, OutboundRefused, postChecked, type OutboundPolicy } from '../../security/outbound.js';
import type { SecretSealer } from '../../security/sealed.js';
import type { AttemptOutcome, ClaimedDelivery, DeliveryRepository } from './delivery-repository.js';
import { MAX_ATTEMPTS_PER_WEBHOOK } from './policy.js';
import { deliveryHeaders, retryDelayMs } from './signer.js';

export interface WorkerSettings {
  timeoutMs: number;
  disableAfter: number;
  concurrency: number;
  pollMs: number;
  outbound: OutboundPolicy;
}

/**
 * Sends due deliveries, on every instance: each claims rows in the database before an attempt
 * (so an attempt is made once across instances, and one an instance did not finish is taken up
 * again once its claim lapses), makes at most `concurrency` attempts at once and at most two per
 * webhook (a slow receiver does not hold up the others), and records each attempt's outcome.
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly perWebhook = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: {
      deliveries: DeliveryRepository;
      sealer: SecretSealer;
      clock: Clock;
      owner: string;
      settings: WorkerSettings;
      /** Called once, on the instance that turned the webhook off, after repeated failure. */
      disabled: (webhookId: number, orgId: number, failures: number, lastError: string) => Promise<void>;
      logError: (err: unknown, message: string) => void;
      /** Each failed attempt, in words (the server log; the delivery log has it too). */
      logFailure: (facts: object, message: string) => void;
    },
  ) {}

  start() {
    this.timer = setInterval(() => this.wake(), this.deps.settings.pollMs);
    this.timer.unref();
  }

  /** Stops claiming and waits for the attempts under way. */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Looks for due deliveries now (there is new work). */
  wake() {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((err: unknown) => this.deps.logError(err, 'webhook deliveries could not be claimed'))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Claims one delivery of the organisation and attempts it now; false if another instance has it. */
  async attemptNow(orgId: number, deliveryId: number): Promise<boolean> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.deliveries.claimOne(
      orgId,
      deliveryId,
      this.deps.owner,
      now,
      this.claimUntil(now),
    );
    if (!claimed) return false;
    await this.track(claimed);
    return true;
  }

  private claimUntil(now: number) {
    return now + this.deps.settings.timeoutMs + 60_000;
  }

  private async tick() {
    const free = this.deps.settings.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const busy = [...this.perWebhook].filter(([, n]) => n >= MAX_ATTEMPTS_PER_WEBHOOK).map(([id]) => id);
    const now = this.deps.clock.now();
    const claimed = await this.deps.deliveries.claimDue(
      this.deps.owner,
      now,
      this.claimUntil(now),
      free,
      busy,
    );
    const over: number[] = [];
    for (const delivery of claimed) {
      // Over the webhook's share (several of its rows were due at once): let the row go for later.
      if ((this.perWebhook.get(delivery.webhook_id) ?? 0) >= MAX_ATTEMPTS_PER_WEBHOOK) over.push(delivery.id);
      else void this.track(delivery);
    }
    if (over.length) await this.deps.deliveries.release(over, this.deps.owner);
  }

  private track(delivery: ClaimedDelivery): Promise<void> {
    this.perWebhook.set(delivery.webhook_id, (this.perWebhook.get(delivery.webhook_id) ?? 0) + 1);
    const run = this.attempt(delivery)
      .catch((err: unknown) => this.deps.logError(err, 'a webhook attempt could not be recorded'))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        const left = (this.perWebhook.get(delivery.webhook_id) ?? 1) - 1;
        if (left > 0) this.perWebhook.set(delivery.webhook_id, left);
        else this.perWebhook.delete(delivery.webhook_id);
        this.wake();
      });
    this.inFlight.set(delivery.id, run);
    return run;
  }

  private async attempt(delivery: ClaimedDelivery) {
    const { settings } = this.deps;
    const outcome = await this.send(delivery);
    const failures = await this.deps.deliveries.recordAttempt(delivery, this.deps.owner, outcome);
    if (outcome.error !== null)
      this.deps.logFailure(
        {
          webhookId: delivery.webhook_id,
          deliveryId: delivery.id,
          attempt: delivery.attempts + 1,
          state: outcome.state,
          status: outcome.answerStatus,
          error: outcome.error,
        },
        'webhook attempt failed',
      );
    if (outcome.state === 'failed' && failures !== null && failures >= settings.disableAfter)
      await this.deps.disabled(delivery.webhook_id, delivery.org_id, failures, outcome.error ?? '');
  }

  /** One attempt: the address checked again, the body signed anew, 2xx or a retry (or the end). */
  private async send(delivery: ClaimedDelivery): Promise<AttemptOutcome> {
    const at = this.deps.clock.now();
    let answerStatus: number | null = null;
    let durationMs: number | null = null;
    let error: string | null = null;
    try {
      const target = await checkTarget(delivery.url, this.deps.settings.outbound);
      const secret = this.deps.sealer.open(delivery.secret_sealed);
      const headers = deliveryHeaders(
        secret,
        Math.floor(at / 1000),
        delivery.payload,
        delivery.event_type,
        delivery.id,
      );
      const answer = await postChecked(target, delivery.payload, headers, this.deps.settings.timeoutMs);
      answerStatus = answer.status;
      durationMs = answer.durationMs;
      if (answer.status < 200 || answer.status > 299)
        error = `the receiver answered HTTP ${answer.status}${answer.excerpt ? `: ${answer.excerpt.slice(0, 200)}` : ''}`;
    } catch (err) {
      error =
        err instanceof OutboundRefused
          ? `address not allowed: ${err.reason}`
          : (err as Error).message || 'the attempt failed';
    }
    if (error === null)
      return { state: 'succeeded', answerStatus, durationMs, error, at, nextAttemptAt: null };
    const next = at + retryDelayMs(delivery.attempts + 1);
    if (next > delivery.retry_until)
      return {
        state: 'failed',
        answerStatus,
        durationMs,
        error: `${error}; no more retries (tried for ${Math.round((at - delivery.created_at) / 60_000)} min)`,
        at,
        nextAttemptAt: null,
      };
    return { state: 'retrying', answerStatus, durationMs, error, at, nextAttemptAt: next };
  }
}
