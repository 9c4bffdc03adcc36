import { everyOnOneInstance, type Foundation } from '../../foundation.js';
import { SecretSealer } from '../../security/sealed.js';
import type { Mailer } from '../mail/mailer.js';
import { DeliveryRepository } from './delivery-repository.js';
import { Outbox, type AlertEventType, type AlertItem } from './outbox.js';
import { SubscriberCache } from './subscriber-cache.js';
import { disableAfterFailures } from './owner-mail.js';
import { subscribePlainEvents } from './plain-events.js';
import { WebhookRepository } from './repository.js';
import { webhookRoutes } from './routes.js';
import { WebhookService } from './service.js';
import { DeliveryWorker } from './worker.js';

const HOUR = 3_600_000;
/** Finished deliveries are kept this long in the delivery log. */
const KEEP_DAYS = 30;

/** What other modules (alerts) use of webhooks. */
export interface WebhookEmitter {
  /**
   * Persists the alerts one batch window changed as one delivery per receiving webhook (see
   * `Outbox.emitAlerts`). Sending happens later, off the caller's path, on whichever instance
   * claims each delivery.
   */
  emitAlerts(type: AlertEventType, items: AlertItem[]): Promise<number>;
  /** Which of the ids are webhooks of `orgId`. */
  ownedIds(orgId: number, ids: number[]): Promise<number[]>;
}

/**
 * Webhooks (issue 26, docs/webhooks.md): the calls, the outbox every instance's worker sends
 * from, and the plain events (presence, command results, task progress) taken from the bus.
 */
export function installWebhooks(f: Foundation, needs: { mailer: Mailer }): WebhookEmitter {
  const { config, clock } = f;
  const webhooks = new WebhookRepository(f.kysely, f.db.dialect);
  const deliveries = new DeliveryRepository(f.kysely, f.db.dialect);
  const sealer = new SecretSealer(f.pepper, 'webhook secrets');
  const changed = () => f.events.publish({ kind: 'webhooksChanged' });
  const disable = disableAfterFailures({
    webhooks,
    deliveries,
    mailer: needs.mailer,
    baseUrl: config.baseUrl,
    now: clock.now,
  });
  const worker = new DeliveryWorker({
    deliveries,
    sealer,
    clock,
    owner: f.jobs.owner,
    settings: { ...config.webhooks, outbound: config.outbound },
    disabled: async (...failure) => {
      await disable(...failure);
      changed();
    },
    logError: f.logError,
    logFailure: (facts, message) => f.log.warn(facts, message),
  });
  const outbox = new Outbox({ webhooks, deliveries, clock, wake: () => worker.wake() });
  webhookRoutes(
    f.router,
    new WebhookService({
      webhooks,
      deliveries,
      outbox,
      sealer,
      clock,
      log: f.operations,
      outbound: config.outbound,
      attemptNow: (orgId, id) => worker.attemptNow(orgId, id),
      changed,
    }),
  );
  const subscribers = new SubscriberCache(
    (companyId, type) => outbox.subscribersForCompany(companyId, type),
    clock.now,
  );
  const plain = subscribePlainEvents(f.events, { outbox, webhooks, subscribers, logError: f.logError });
  worker.start();
  // The delivery log keeps finished deliveries for 30 days.
  everyOnOneInstance(
    f,
    'webhooks.prune',
    HOUR,
    async () => {
      await deliveries.prune(clock.now() - KEEP_DAYS * 24 * HOUR);
    },
    'old webhook deliveries could not be deleted',
  );
  f.http.addHook('preClose', async () => {
    plain.unsubscribe();
    await plain.settled();
    await worker.stop();
  });
  return {
    emitAlerts: (type, items) => outbox.emitAlerts(type, items),
    ownedIds: (orgId, ids) => webhooks.ownedIds(orgId, ids),
  };
}
