import { translate, webhooks } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { WebhookService } from './service.js';

export function webhookRoutes(router: Router, service: WebhookService) {
  router.add(webhooks.listWebhooks, async ({ session, params }) => {
    const { rows, total } = await service.list(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(webhooks.saveWebhook, async ({ session, params, language, ip }) => {
    const saved = await service.save(session.user, params, language, ip);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, saved.secret ? 'webhook.created' : 'webhook.saved'),
      dataObject: saved,
    };
  });

  router.add(webhooks.deleteWebhook, async ({ session, params, language, ip }) => {
    await service.delete(session.user, params.id, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'webhook.deleted') };
  });

  router.add(webhooks.rotateWebhookSecret, async ({ session, params, language, ip }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'webhook.secretRotated'),
    dataObject: { secret: await service.rotateSecret(session.user, params.id, ip) },
  }));

  router.add(webhooks.testWebhook, async ({ session, params, language }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'webhook.testSent'),
    dataObject: { deliveryId: await service.test(session.user, params.id) },
  }));

  router.add(webhooks.listWebhookDeliveries, async ({ session, params }) => {
    const { rows, total } = await service.deliveries(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(webhooks.listDeliveryAttempts, async ({ session, params }) => {
    const rows = await service.attempts(session.user, params.deliveryId);
    return { hhtStatus: 'success', listObject: rows, totalRecords: rows.length };
  });

  router.add(webhooks.redeliver, async ({ session, params, language }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'webhook.redelivered'),
    dataObject: { deliveryId: await service.redeliver(session.user, params.id) },
  }));
}
