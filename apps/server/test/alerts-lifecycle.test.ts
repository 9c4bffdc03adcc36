import ExcelJS from 'exceljs';
import { live } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import type { BusMessage } from '../src/events/bus.js';
import { countAlerts, insertPanels, listAlerts, ruleOf } from './alerts-helpers.js';
import { waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';
import { openStream } from './live-helpers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type AlertEvent = live.LiveEvent & { type: 'alert' };

/** Active -> acknowledged (by whom, with a note) -> cleared, by hand or when the condition ends. */
describe.each(backends)('the alert lifecycle on %s', (backend) => {
  let server: TestServer;
  let customer: TestClient;
  let operator: TestClient;
  const events: Array<{ orgId: number; event: AlertEvent }> = [];

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
        alerts: { evaluateEveryMs: HOUR, mailWindowMs: HOUR },
      },
    );
    customer = await signedIn(server, 'customer1', 'customer123');
    operator = await signedIn(server, 'operator1', 'operator123');
    server.app.events.subscribe((message: BusMessage) => {
      if (message.kind === 'live' && message.event.type === 'alert')
        events.push({ orgId: message.orgId, event: message.event });
    });
  });
  afterAll(() => server.stop());

  it('acknowledges with a note, clears by hand, raises once per rule and subject, and publishes each change', async () => {
    const orgId = server.accounts.customerId;
    const panels = await insertPanels(server, orgId, 3, 'LIFE', { last_seen_at: server.clock.now() - HOUR });
    const rule = await ruleOf(customer, { severity: 'critical', condition: { kind: 'offline', minutes: 5 } });
    // Two rounds at once (two instances racing): each alert is raised once.
    const rounds = await Promise.all([server.app.alerts.evaluate(), server.app.alerts.evaluate()]);
    expect(rounds[0].raised + rounds[1].raised).toBe(3);
    expect(await countAlerts(operator)).toEqual({
      active: 3,
      acknowledged: 0,
      bySeverity: { critical: 3, major: 0, minor: 0, info: 0 },
    });
    const raised = events.filter((e) => e.event.change === 'raised');
    expect(raised).toHaveLength(3);
    expect(raised[0]).toMatchObject({ orgId, event: { ruleId: rule.id, severity: 'critical' } });
    expect(raised.map((e) => e.event.deviceId).sort()).toEqual([...panels].sort());

    const list = await listAlerts(operator);
    const [first, second, third] = list.listObject.sort((a, b) => a.id - b.id);
    const ack = await operator.request('POST', '/alerts/acknowledge', {
      json: { ids: [first!.id, second!.id], note: 'Caretaker is on it' },
    });
    expect(ack.body).toMatchObject({ hhtStatus: 'success', dataObject: { changed: 2 } });
    // Acknowledged ones are not acknowledged again.
    expect(
      (await customer.request('POST', '/alerts/acknowledge', { json: { ids: [first!.id] } })).body,
    ).toMatchObject({ dataObject: { changed: 0 } });
    const acknowledged = await listAlerts(operator, '&states=acknowledged');
    expect(acknowledged.listObject).toHaveLength(2);
    expect(acknowledged.listObject[0]).toMatchObject({
      state: 'acknowledged',
      acknowledgedBy: 'operator1',
      note: 'Caretaker is on it',
      acknowledgedAt: server.clock.now(),
    });
    expect(await countAlerts(customer)).toMatchObject({ active: 1, acknowledged: 2 });

    const cleared = await customer.request('POST', '/alerts/clear', {
      json: { ids: [first!.id, third!.id] },
    });
    expect(cleared.body).toMatchObject({ dataObject: { changed: 2 } });
    expect((await listAlerts(customer, '&states=cleared')).listObject).toMatchObject([
      { clearedBy: 'customer1' },
      { clearedBy: 'customer1' },
    ]);
    // Still offline since the same time: cleared by hand, not raised again.
    server.clock.advance(MINUTE);
    await server.app.alerts.evaluate();
    expect((await listAlerts(customer)).listObject.map((a) => a.id)).toEqual([second!.id]);
    // Seen again, then offline again: a new alert.
    await server.app.db.kysely
      .updateTable('devices')
      .set({ last_seen_at: server.clock.now() })
      .where('id', '=', Number(first!.subject.id))
      .execute();
    server.clock.advance(6 * MINUTE);
    await server.app.alerts.evaluate();
    const open = (await listAlerts(customer)).listObject;
    expect(open.map((a) => a.subject.id).sort()).toEqual([first!.subject.id, second!.subject.id].sort());
    expect(open.find((a) => a.subject.id === first!.subject.id)!.id).not.toBe(first!.id);

    const changes = events.map((e) => e.event.change);
    expect(changes.filter((c) => c === 'acknowledged')).toHaveLength(2);
    expect(changes.filter((c) => c === 'cleared')).toHaveLength(2);
    expect(changes.filter((c) => c === 'raised')).toHaveLength(4);

    // Deleting the rule clears its open alerts; the history stays.
    await customer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } });
    expect(await countAlerts(customer)).toMatchObject({ active: 0, acknowledged: 0 });
    expect((await listAlerts(customer, '&states=cleared&q=life')).totalRecords).toBe(4);
    // Rule changes and acknowledgements are in the organisation's operation log.
    const logged = await server.app.db.kysely
      .selectFrom('operation_logs')
      .select(['action', 'user_name', 'org_id'])
      .where('action', 'like', 'alert%')
      .orderBy('id')
      .execute();
    expect(logged).toEqual([
      { action: 'alertRule.save', user_name: 'customer1', org_id: orgId },
      { action: 'alert.acknowledge', user_name: 'operator1', org_id: orgId },
      { action: 'alert.clear', user_name: 'customer1', org_id: orgId },
      { action: 'alertRule.delete', user_name: 'customer1', org_id: orgId },
    ]);
  });

  it("streams the alert event to the consoles of the subject's company only (the bell)", async () => {
    const orgId = server.accounts.customerId;
    const other = await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'c-customer', password: 'ccustomer123', userType: '2', activated: 1 },
    ]);
    const mine = await openStream(server.url, operator);
    const theirs = await openStream(server.url, await signedIn(server, 'c-customer', 'ccustomer123'));
    try {
      await waitFor('streams ready', () =>
        [mine, theirs].every((s) => s.events.some((e) => e.event === live.STREAM_READY)),
      );
      await insertPanels(server, orgId, 1, 'BELL', { last_seen_at: server.clock.now() - HOUR });
      await insertPanels(server, other.customerId, 1, 'OTHERBELL', {
        last_seen_at: server.clock.now() - HOUR,
      });
      const rule = await ruleOf(customer, { condition: { kind: 'offline', minutes: 5 } });
      await server.app.alerts.evaluate();
      const event = await waitFor('the alert event', () =>
        mine.events.find((e) => (e.data as { type?: string } | null)?.type === 'alert'),
      );
      expect(event.data).toMatchObject({
        type: 'alert',
        change: 'raised',
        ruleId: rule.id,
        severity: 'major',
      });
      expect(theirs.events.some((e) => (e.data as { type?: string } | null)?.type === 'alert')).toBe(false);
      await customer.request('POST', '/alerts/rules/delete', { json: { id: rule.id } });
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('exports the filtered history as a workbook in the caller language', async () => {
    const zh = await signedIn(server, 'customer1', 'customer123', 'zh-CN');
    const response = await fetch(
      `${server.url}/alerts/export?states=active,acknowledged,cleared&severities=critical`,
      {
        headers: { cookie: `pf_session=${zh.cookie('pf_session')}`, 'accept-language': 'zh-CN' },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('告警');
    expect(sheet.getRow(1).getCell(1).value).toBe('产生时间（UTC）');
    expect(sheet.rowCount).toBe(1 + 4);
    expect(String(sheet.getRow(2).getCell(2).value)).toBe('紧急');
    expect(String(sheet.getRow(2).getCell(8).value)).toContain('离线超过 5 分钟');
  });
});
