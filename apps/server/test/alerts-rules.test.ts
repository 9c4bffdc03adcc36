import { alerts } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts, type SeededAccounts } from '../src/dev/seed-accounts.js';
import { insertPanels, listAlerts, ruleOf, saveRule } from './alerts-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

const HOUR = 3_600_000;

describe.each(backends)('alert rules and their scope on %s', (backend) => {
  let server: TestServer;
  let other: SeededAccounts;
  let customer: TestClient;
  let otherCustomer: TestClient;

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
        alerts: { evaluateEveryMs: HOUR, mailWindowMs: HOUR },
      },
    );
    other = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
    ]);
    customer = await signedIn(server, 'customer1', 'customer123');
    otherCustomer = await signedIn(server, 'b-customer', 'bcustomer123');
  });
  afterAll(() => server.stop());

  it('saves, lists, changes and deletes a rule of the caller organisation', async () => {
    const rule = await ruleOf(customer, {
      name: 'Dark panels',
      severity: 'critical',
      condition: { kind: 'offline', minutes: 10 },
      durationSeconds: 30,
      channels: { emailUserIds: [server.accounts.userIds.operator1!], emailAddresses: ['ops@example.com'] },
    });
    expect(rule).toMatchObject({
      name: 'Dark panels',
      enabled: true,
      severity: 'critical',
      condition: { kind: 'offline', minutes: 10 },
      durationSeconds: 30,
      labelIds: [],
      createdBy: 'customer1',
      openAlerts: 0,
      channels: { emailMode: 'grouped', emailAddresses: ['ops@example.com'], webhookIds: [] },
    });
    const changed = await ruleOf(customer, { ...rule, id: rule.id, name: 'Dark rooms', enabled: false });
    expect(changed).toMatchObject({ id: rule.id, name: 'Dark rooms', enabled: false });
    const list = alerts.listAlertRules.reply.parse((await customer.get('/alerts/rules?size=100')).body);
    expect(list.listObject.map((r) => r.name)).toContain('Dark rooms');
    // Another organisation neither sees nor changes nor deletes it.
    const theirs = alerts.listAlertRules.reply.parse((await otherCustomer.get('/alerts/rules')).body);
    expect(theirs.listObject.map((r) => r.id)).not.toContain(rule.id);
    expect((await saveRule(otherCustomer, { ...rule, id: rule.id })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The alert rule does not exist',
    });
    expect(
      (await otherCustomer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } })).body,
    ).toMatchObject({ hhtStatus: 'fail', hhtMsg: 'The alert rule does not exist' });
    const deleted = await customer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } });
    expect(deleted.body).toMatchObject({ hhtStatus: 'success' });
  });

  it('answers bad input with the envelope in the caller language, never a 500', async () => {
    const cases: Array<[unknown, string]> = [
      [{ condition: { kind: 'offline', minutes: 0 } }, 'Minutes must be a whole number from 1 to 10080'],
      [{ condition: { kind: 'nothing' } }, 'Choose what the rule watches'],
      [
        { condition: { kind: 'threshold', metric: 'cpuTemperature', direction: 'sideways', value: 3 } },
        'Choose above or below',
      ],
      [
        { condition: { kind: 'offline', minutes: 5 }, durationSeconds: 90_000 },
        'The minimum duration must be from 0 to 86400 seconds',
      ],
      [
        { condition: { kind: 'offline', minutes: 5 }, channels: { emailAddresses: ['not-mail'] } },
        'An e-mail address is not valid',
      ],
      [{ condition: { kind: 'offline', minutes: 5 }, labelIds: [999_999] }, 'No such label'],
      [
        {
          condition: { kind: 'offline', minutes: 5 },
          channels: { emailUserIds: [other.userIds['b-customer']!] },
        },
        'A recipient is not a user of your organisation',
      ],
      [
        { condition: { kind: 'offline', minutes: 5 }, channels: { webhookIds: [1] } },
        'A webhook does not exist in your organisation',
      ],
    ];
    for (const [input, message] of cases) {
      const reply = await saveRule(customer, input as never);
      expect(reply.status).toBeLessThan(500);
      expect(reply.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
    }
    const zh = await signedIn(server, 'customer1', 'customer123', 'zh-CN');
    expect((await saveRule(zh, { condition: { kind: 'offline', minutes: 5 }, name: '' })).body).toMatchObject(
      {
        hhtStatus: 'fail',
        hhtMsg: '请输入规则名称',
      },
    );
    expect((await customer.request('POST', '/alerts/acknowledge', { json: { ids: [] } })).body).toMatchObject(
      { hhtStatus: 'fail', hhtMsg: 'Choose at least one alert' },
    );
    expect((await customer.get('/alerts/list?states=open')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Choose active, acknowledged or cleared',
    });
  });

  it('takes labels of its scope only', async () => {
    const [mine] = await server.app.db.kysely
      .insertInto('labels')
      .values([
        { org_id: server.accounts.customerId, name: 'Hall', created_at: 0 },
        { org_id: other.customerId, name: 'Theirs', created_at: 0 },
      ])
      .returning('id')
      .execute();
    const theirs = await server.app.db.kysely
      .selectFrom('labels')
      .select('id')
      .where('org_id', '=', other.customerId)
      .executeTakeFirstOrThrow();
    const rule = await ruleOf(customer, { condition: { kind: 'offline', minutes: 5 }, labelIds: [mine!.id] });
    expect(rule).toMatchObject({ labelIds: [mine!.id], labelNames: ['Hall'] });
    expect(
      (await saveRule(customer, { condition: { kind: 'offline', minutes: 5 }, labelIds: [theirs.id] })).body,
    ).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'No such label',
    });
    await customer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } });
  });

  it('keeps at most 200 rules per organisation, also when they are saved at once', async () => {
    const existing = alerts.listAlertRules.reply.parse(
      (await customer.get('/alerts/rules')).body,
    ).totalRecords;
    const replies = await Promise.all(
      Array.from({ length: 200 - existing + 15 }, (_, i) =>
        saveRule(customer, { name: `r${i}`, enabled: false, condition: { kind: 'offline', minutes: 5 } }),
      ),
    );
    const refused = replies.filter((r) => r.body.hhtStatus === 'fail');
    expect(refused).toHaveLength(15);
    expect(refused[0]!.body.hhtMsg).toBe('Your organisation has the most alert rules it may have (200)');
    expect(alerts.listAlertRules.reply.parse((await customer.get('/alerts/rules')).body).totalRecords).toBe(
      200,
    );
    // The other organisation has its own 200.
    await ruleOf(otherCustomer, { enabled: false, condition: { kind: 'offline', minutes: 5 } });
  });

  it("shows and acknowledges only the caller's alerts, never another organisation's", async () => {
    await insertPanels(server, other.customerId, 2, 'THEIRS', { last_seen_at: server.clock.now() - HOUR });
    await ruleOf(otherCustomer, { name: 'theirs', condition: { kind: 'offline', minutes: 5 } });
    await server.app.alerts.evaluate();
    const theirs = await listAlerts(otherCustomer);
    expect(theirs.totalRecords).toBe(2);
    expect((await listAlerts(customer)).listObject.map((a) => a.id)).not.toContain(theirs.listObject[0]!.id);
    const ids = theirs.listObject.map((a) => a.id);
    for (const path of ['/alerts/acknowledge', '/alerts/clear'])
      expect((await customer.request('POST', path, { json: { ids } })).body).toMatchObject({
        hhtStatus: 'success',
        dataObject: { changed: 0 },
      });
    expect((await listAlerts(otherCustomer)).listObject.every((a) => a.state === 'active')).toBe(true);
    const sales = await signedIn(server, 'sales1', 'sales123');
    expect((await listAlerts(sales)).totalRecords).toBe(0);
  });

  it("lets a distributor watch its customers' panels, and no other distributor's", async () => {
    const sales = await signedIn(server, 'sales1', 'sales123');
    const [mine] = await insertPanels(server, server.accounts.customerId, 1, 'DIST', {
      last_seen_at: server.clock.now() - HOUR,
    });
    const rule = await ruleOf(sales, { name: 'customers dark', condition: { kind: 'offline', minutes: 5 } });
    await server.app.alerts.evaluate();
    const seen = await listAlerts(sales, `&ruleIds=${rule.id}`);
    expect(seen.listObject.map((a) => a.subject.id)).toContain(String(mine));
    expect(seen.listObject.every((a) => a.companyId === server.accounts.customerId)).toBe(true);
    // The other distributor's customer's panels (THEIRS-...) are not in its scope.
    expect(seen.listObject.some((a) => a.subject.name.startsWith('THEIRS'))).toBe(false);
    // The distributor's alerts are its own: the company's users do not count them.
    expect((await listAlerts(customer, `&ruleIds=${rule.id}`)).totalRecords).toBe(0);
  });
});
