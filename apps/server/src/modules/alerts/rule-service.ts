import type { alerts as contract, Language } from '@panelfleet/contract';
import type { OperationLog } from '../operation-log/repository.js';
import type { Clock } from '../../clock.js';
import type { SessionUser } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { FleetScopes } from '../fleet-scope/service.js';
import type { AlertChanges, AlertWebhooks } from './changes.js';
import type { AlertLifecycleRepository } from './lifecycle-repository.js';
import { MAX_RULES, reachOf } from './policy.js';
import type { AlertRepository, RuleRow } from './repository.js';
import { ruleView } from './views.js';

/** An organisation's alert rules: listed, saved (checked against its scope), deleted. */
export class AlertRuleService {
  constructor(
    private readonly deps: {
      repository: AlertRepository;
      lifecycle: AlertLifecycleRepository;
      changes: AlertChanges;
      scopes: FleetScopes;
      webhooks: AlertWebhooks | undefined;
      clock: Clock;
      log: OperationLog;
    },
  ) {}

  async page(user: SessionUser, start: number, size: number) {
    const { rows, total } = await this.deps.repository.rulePage(user.orgId, start, size);
    return { rows: await this.views(rows), total };
  }

  private async views(rows: RuleRow[]): Promise<contract.AlertRule[]> {
    const { repository } = this.deps;
    const labelIds = rows.flatMap((r) => JSON.parse(r.label_ids) as number[]);
    const [names, open] = await Promise.all([
      repository.labelNames([...new Set(labelIds)]),
      repository.openCounts(rows.map((r) => r.id)),
    ]);
    return rows.map((r) => ruleView(r, names, open.get(r.id) ?? 0));
  }

  async save(
    user: SessionUser,
    input: contract.AlertRuleInput,
    language: Language,
    ip: string,
  ): Promise<contract.AlertRule> {
    const { repository, clock } = this.deps;
    const before = input.id === undefined ? undefined : await repository.rule(user.orgId, input.id);
    if (input.id !== undefined && !before) throw new Refusal('alert.ruleNotFound', 'notFound');
    await this.check(user, input);
    const now = clock.now();
    const values = {
      name: input.name,
      enabled: input.enabled ? 1 : 0,
      severity: input.severity,
      kind: input.condition.kind,
      condition: JSON.stringify(input.condition),
      duration_seconds: input.durationSeconds,
      label_ids: JSON.stringify([...new Set(input.labelIds)]),
      channels: JSON.stringify(input.channels),
      language,
      updated_at: now,
    };
    let id = input.id;
    if (id === undefined) {
      id = await repository.insertWithin(MAX_RULES, {
        ...values,
        org_id: user.orgId,
        created_by: user.userName,
        created_at: now,
      });
      if (id === undefined) throw new Refusal('alert.tooManyRules', 'declined');
    } else if (before) {
      await repository.updateRule(user.orgId, id, values);
      const watchesAnew =
        before.condition !== values.condition || before.label_ids !== values.label_ids || !input.enabled;
      // Its open alerts were raised for what it watched before: they end with it.
      if (watchesAnew) await this.clearRule(user, before);
    }
    await this.deps.log.recordBy(user, ip, 'alertRule.save', { k: 'alertRule', v: { name: input.name } });
    const saved = await repository.rule(user.orgId, id);
    if (!saved) throw new Refusal('alert.ruleNotFound', 'notFound');
    return (await this.views([saved]))[0]!;
  }

  async delete(user: SessionUser, id: number, ip: string): Promise<void> {
    const rule = await this.deps.repository.rule(user.orgId, id);
    if (!rule) throw new Refusal('alert.ruleNotFound', 'notFound');
    await this.clearRule(user, rule);
    if (!(await this.deps.repository.deleteRule(user.orgId, id)))
      throw new Refusal('alert.ruleNotFound', 'notFound');
    await this.deps.log.recordBy(user, ip, 'alertRule.delete', { k: 'alertRule', v: { name: rule.name } });
  }

  private async clearRule(user: SessionUser, rule: RuleRow) {
    const { lifecycle, changes, clock } = this.deps;
    const cleared = await lifecycle.clearRule(user.orgId, rule.id, clock.now(), user.userName);
    await lifecycle.removePending(rule.id, 'all');
    await changes.changed('cleared', cleared, new Map([[rule.id, rule]]));
  }

  /** Labels in the caller's scope, recipients of its organisation, webhooks of its organisation. */
  private async check(user: SessionUser, input: contract.AlertRuleInput) {
    const { repository, scopes, webhooks } = this.deps;
    const labelIds = [...new Set(input.labelIds)];
    if (labelIds.length) {
      const reach = await reachOf(scopes, user);
      const found = await repository.labelsIn(reach.companyIds, labelIds);
      if (found.length !== labelIds.length) throw new Refusal('label.notFound', 'notFound');
    }
    const userIds = [...new Set(input.channels.emailUserIds)];
    if (userIds.length) {
      const found = await repository.usersOf(user.orgId, userIds);
      if (found.length !== userIds.length) throw new Refusal('alert.recipientNotFound', 'notFound');
    }
    const hookIds = [...new Set(input.channels.webhookIds)];
    if (hookIds.length) {
      const owned = webhooks ? await webhooks.ownedIds(user.orgId, hookIds) : [];
      if (owned.length !== hookIds.length) throw new Refusal('alert.webhookNotFound', 'notFound');
    }
  }
}
