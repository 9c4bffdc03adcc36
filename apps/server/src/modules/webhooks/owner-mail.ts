import { LANGUAGES, translate, type Language } from '@panelfleet/contract';
import type { Mailer } from '../mail/mailer.js';
import type { DeliveryRepository } from './delivery-repository.js';
import type { WebhookRepository } from './repository.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * After repeated failure: turns the webhook off (once, whichever instance gets there first) with
 * its reason in its creator's language, and mails the creator in that language.
 */
export function disableAfterFailures(deps: {
  webhooks: WebhookRepository;
  deliveries: DeliveryRepository;
  mailer: Mailer;
  baseUrl: string;
  now: () => number;
}) {
  return async (webhookId: number, orgId: number, failures: number, lastError: string) => {
    const webhook = await deps.webhooks.find(orgId, webhookId);
    if (!webhook) return;
    const language: Language = (LANGUAGES as readonly string[]).includes(webhook.created_language)
      ? (webhook.created_language as Language)
      : 'en-US';
    const reason = translate(language, 'webhook.disabledReason', { count: failures });
    if (!(await deps.deliveries.disable(webhookId, reason, deps.now()))) return;
    const to = await deps.webhooks.creatorAddress(orgId, webhook.created_by);
    if (!to) return;
    const vars = { name: webhook.name, url: webhook.url, count: failures, error: lastError };
    const subject = translate(language, 'webhook.disabledMail.subject', vars);
    const body = translate(language, 'webhook.disabledMail.body', vars);
    const link = deps.baseUrl;
    await deps.mailer.send({
      to,
      subject,
      link,
      text: `${body}\n\n${link}\n`,
      html: `<p>${escape(body)}</p><p><a href="${escape(link)}">${escape(link)}</a></p>`,
    });
  };
}
