import type { Insertable } from 'kysely';
import type { alerts as contract, Language } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import type { AlertMailOutboxTable } from '../../db/schema-alerts.js';
import type { EventBus } from '../../events/bus.js';
import type { AlertRow } from './lifecycle-repository.js';
import type { AlertMailRepository } from './mail-repository.js';
import type { AlertRepository, RuleRow } from './repository.js';
import { alertView, ruleParts } from './views.js';

/** What alerts need of the webhooks module (optional: without it no rule may name webhooks). */
export interface AlertWebhooks {
  /**
   * The alerts one batch window changed, each with its organisation and the webhooks its rule
   * names: one delivery per receiving webhook, listing them.
   */
  emitAlerts(
    type: `alert.${AlertChange}`,
    items: Array<{ orgId: number; alert: contract.Alert; alsoTo: number[] }>,
  ): Promise<number>;
  ownedIds(orgId: number, ids: number[]): Promise<number[]>;
}

export type AlertChange = 'raised' | 'acknowledged' | 'cleared';

interface Log {
  error(obj: object, message: string): void;
}

/**
 * Tells everyone about alerts this instance changed, after the change is committed: the bell
 * (a live event on the bus for the subject's company), the rule's webhooks, and the mail outbox
 * (raised and cleared; each recipient of the rule in their language).
 */
export class AlertChanges {
  constructor(
    private readonly deps: {
      events: EventBus;
      clock: Clock;
      log: Log;
      repository: AlertRepository;
      outbox: AlertMailRepository;
      webhooks: AlertWebhooks | undefined;
    },
  ) {}

  async changed(change: AlertChange, rows: AlertRow[], rules?: Map<number, RuleRow>): Promise<void> {
    if (!rows.length) return;
    const { events, clock, repository } = this.deps;
    const at = clock.now();
    for (const row of rows)
      events.publish({
        kind: 'live',
        orgId: row.company_id,
        event: {
          type: 'alert',
          change,
          alertId: row.id,
          ruleId: row.rule_id,
          severity: row.severity as contract.AlertSeverity,
          ...(row.device_id !== null ? { deviceId: row.device_id } : {}),
          at,
        },
      });
    const byId =
      rules ??
      new Map((await repository.rulesById([...new Set(rows.map((r) => r.rule_id))])).map((r) => [r.id, r]));
    await this.toWebhooks(change, rows, byId);
    if (change !== 'acknowledged') await this.toOutbox(change, rows, byId, at);
  }

  /** The rows are one batch window's changes: one call, so one delivery per webhook. */
  private async toWebhooks(change: AlertChange, rows: AlertRow[], rules: Map<number, RuleRow>) {
    const hooks = this.deps.webhooks;
    if (!hooks) return;
    try {
      const names = await this.deps.repository.companyNames([...new Set(rows.map((r) => r.company_id))]);
      const webhookIdsOf = new Map(
        [...rules.values()].map((rule) => [rule.id, ruleParts(rule).channels.webhookIds]),
      );
      await hooks.emitAlerts(
        `alert.${change}`,
        rows.map((row) => ({
          orgId: row.org_id,
          alert: alertView(row, names.get(row.company_id) ?? ''),
          alsoTo: webhookIdsOf.get(row.rule_id) ?? [],
        })),
      );
    } catch (err) {
      this.deps.log.error({ err, change, alerts: rows.length }, 'alert webhook delivery could not be stored');
    }
  }

  private async toOutbox(change: AlertChange, rows: AlertRow[], rules: Map<number, RuleRow>, at: number) {
    const outbox: Insertable<AlertMailOutboxTable>[] = [];
    const recipientsOf = new Map<number, Recipient[]>();
    for (const row of rows) {
      const rule = rules.get(row.rule_id);
      if (!rule) continue;
      let recipients = recipientsOf.get(rule.id);
      if (!recipients) {
        recipients = await this.recipients(rule);
        recipientsOf.set(rule.id, recipients);
      }
      for (const r of recipients)
        outbox.push({
          org_id: row.org_id,
          recipient: r.address,
          language: r.language,
          digest: r.digest ? 1 : 0,
          alert_id: row.id,
          change: change === 'raised' ? 'raised' : 'cleared',
          at,
        });
    }
    await this.deps.outbox.enqueue(outbox);
  }

  /** The rule's mail recipients: its users (in their last console language) and addresses (in the rule's). */
  private async recipients(rule: RuleRow): Promise<Recipient[]> {
    const { channels } = ruleParts(rule);
    const digest = channels.emailMode === 'digest';
    const users = await this.deps.repository.usersOf(rule.org_id, channels.emailUserIds);
    const out = new Map<string, Recipient>();
    for (const u of users)
      if (u.enabled === 1 && u.email)
        out.set(u.email.toLowerCase(), {
          address: u.email,
          language: asLanguage(u.language ?? rule.language),
          digest,
        });
    for (const address of channels.emailAddresses)
      if (!out.has(address.toLowerCase()))
        out.set(address.toLowerCase(), { address, language: asLanguage(rule.language), digest });
    return [...out.values()];
  }
}

interface Recipient {
  address: string;
  language: Language;
  digest: boolean;
}

export const asLanguage = (value: string): Language => (value === 'en-US' ? 'en-US' : 'zh-CN');
