import { alerts, webhooks } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '../src/http/router.js';
import { AlertChanges, type AlertWebhooks } from '../src/modules/alerts/changes.js';
import { AlertEvaluationRepository } from '../src/modules/alerts/evaluation-repository.js';
import { AlertEvaluator } from '../src/modules/alerts/evaluator.js';
import { AlertLifecycleRepository } from '../src/modules/alerts/lifecycle-repository.js';
import { AlertMailRepository } from '../src/modules/alerts/mail-repository.js';
import { AlertRepository } from '../src/modules/alerts/repository.js';
import { AlertRuleService } from '../src/modules/alerts/rule-service.js';
import { AlertService } from '../src/modules/alerts/service.js';
import { FleetScopeRepository } from '../src/modules/fleet-scope/repository.js';
import { FleetScopes } from '../src/modules/fleet-scope/service.js';
import { OperationLog } from '../src/modules/operation-log/repository.js';
import { Refusal } from '../src/refusal.js';
import { insertPanels } from './alerts-helpers.js';
import { backends, startServer, type TestServer } from './harness.js';

const HOUR = 3_600_000;

type Emitted = {
  type: webhooks.WebhookEventType;
} & Parameters<AlertWebhooks['emitAlerts']>[1][number];

/**
 * The seam to the webhooks module (issue 26's common notes): a rule may name only webhooks the
 * module says are the organisation's; each raise, acknowledgement and clear is handed to
 * `emitAlerts` once, with the rule's webhooks, after the change is committed, the changes of one
 * batch window (a round, a bulk action) in one call; a failing call is logged and changes nothing
 * else.
 */
describe.each(backends)('alerts and webhooks on %s', (backend) => {
  let server: TestServer;
  const emitted: Emitted[] = [];
  const calls: Array<{ type: webhooks.WebhookEventType; alerts: number }> = [];
  const errors: string[] = [];
  let failing = false;
  let user: SessionUser;
  let rules: AlertRuleService;
  let service: AlertService;
  let evaluator: AlertEvaluator;

  beforeAll(async () => {
    server = await startServer(backend, {}, { alerts: { evaluateEveryMs: HOUR, mailWindowMs: HOUR } });
    const db = server.app.db;
    const orgId = server.accounts.customerId;
    user = {
      id: server.accounts.userIds.customer1!,
      orgId,
      userName: 'customer1',
      userType: '2',
      activated: 1,
      programRole: 0,
    };
    const hooks: AlertWebhooks = {
      async emitAlerts(type, items) {
        if (failing) throw new Error('webhook store down');
        calls.push({ type, alerts: items.length });
        for (const item of items) emitted.push({ type, ...item });
        return items.length;
      },
      ownedIds: (org, ids) => Promise.resolve(ids.filter((id) => org === orgId && id === 7)),
    };
    const repository = new AlertRepository(db.kysely, db.dialect);
    const lifecycle = new AlertLifecycleRepository(db.kysely);
    const changes = new AlertChanges({
      events: server.app.events,
      clock: server.clock,
      log: { error: (_obj, message) => void errors.push(message) },
      repository,
      outbox: new AlertMailRepository(db.kysely, db.dialect),
      webhooks: hooks,
    });
    const scopes = new FleetScopes(new FleetScopeRepository(db.kysely));
    const log = new OperationLog(db.kysely, server.clock.now);
    rules = new AlertRuleService({
      repository,
      lifecycle,
      changes,
      scopes,
      webhooks: hooks,
      clock: server.clock,
      log,
    });
    service = new AlertService({ repository, lifecycle, changes, scopes, clock: server.clock, log });
    evaluator = new AlertEvaluator({
      rules: repository,
      evaluation: new AlertEvaluationRepository(db.kysely, db.dialect),
      lifecycle,
      changes,
      clock: server.clock,
      isOnline: () => false,
    });
  });
  afterAll(() => server.stop());

  const input = (webhookIds: number[]) =>
    alerts.alertRuleInput.parse({
      name: 'Hooked',
      severity: 'minor',
      condition: { kind: 'offline', minutes: 5 },
      channels: { webhookIds },
    });

  it('takes only webhooks of the organisation', async () => {
    await expect(rules.save(user, input([7, 8]), 'en-US', '127.0.0.1')).rejects.toThrow(
      new Refusal('alert.webhookNotFound', 'notFound'),
    );
    expect((await rules.save(user, input([7]), 'en-US', '127.0.0.1')).channels.webhookIds).toEqual([7]);
  });

  it('emits each raise, acknowledgement and clear once, to the rule webhooks, and survives a failing emit', async () => {
    const orgId = server.accounts.customerId;
    const [panel] = await insertPanels(server, orgId, 1, 'HOOK', { last_seen_at: server.clock.now() - HOUR });
    await evaluator.round();
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({ orgId, type: 'alert.raised', alsoTo: [7] });
    const alert = alerts.alert.parse(emitted[0]!.alert);
    expect(alert).toMatchObject({ state: 'active', subject: { id: String(panel), deviceKey: 'HOOK-00000' } });
    await evaluator.round();
    expect(emitted).toHaveLength(1);
    expect(await service.acknowledge(user, [alert.id], 'seen', '127.0.0.1')).toBe(1);
    expect(emitted.at(-1)).toMatchObject({
      type: 'alert.acknowledged',
      alert: { id: alert.id, note: 'seen' },
    });
    failing = true;
    expect(await service.clear(user, [alert.id], '127.0.0.1')).toBe(1);
    failing = false;
    expect(errors).toEqual(['alert webhook delivery could not be stored']);
    expect(emitted.map((e) => e.type)).toEqual(['alert.raised', 'alert.acknowledged']);
  });

  it('hands what one round raised under every rule to one call, and a bulk acknowledgement to one', async () => {
    const orgId = server.accounts.customerId;
    calls.length = 0;
    emitted.length = 0;
    await insertPanels(server, orgId, 30, 'ROUND', { last_seen_at: server.clock.now() - HOUR });
    const second = await rules.save(
      user,
      alerts.alertRuleInput.parse({
        name: 'Second',
        severity: 'major',
        condition: { kind: 'offline', minutes: 10 },
      }),
      'en-US',
      '127.0.0.1',
    );
    // The first rule raises the 30 new panels, the second these and the one of the test before.
    expect(await evaluator.round()).toEqual({ raised: 61, cleared: 0 });
    expect(calls).toEqual([{ type: 'alert.raised', alerts: 61 }]);
    expect(emitted.filter((e) => e.alert.ruleId === second.id).every((e) => e.alsoTo.length === 0)).toBe(
      true,
    );
    expect(emitted.filter((e) => e.alert.ruleId !== second.id).every((e) => e.alsoTo[0] === 7)).toBe(true);
    const ids = emitted.map((e) => e.alert.id);
    expect(await service.acknowledge(user, ids, undefined, '127.0.0.1')).toBe(61);
    expect(calls.at(-1)).toEqual({ type: 'alert.acknowledged', alerts: 61 });
    expect(calls).toHaveLength(2);
  });
});
