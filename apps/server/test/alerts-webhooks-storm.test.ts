import { alerts, webhooks } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPanels, ruleOf } from './alerts-helpers.js';
import { waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

const HOUR = 3_600_000;

/**
 * A storm reaches each webhook as one delivery per batch window (docs/webhooks.md, "Alert
 * events"): every alert one evaluation round raised, or one bulk acknowledgement changed, is
 * listed in one delivery per webhook (at most WEBHOOK_MAX_ALERTS, `total` counting them all),
 * which is signed, sent by the workers and redelivered like any other.
 */
describe.each(backends)('an alert storm to webhooks on %s', (backend) => {
  let server: TestServer;
  let customer: TestClient;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    server = await startServer(
      backend,
      { OUTBOUND_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: '20' },
      { alerts: { evaluateEveryMs: HOUR, mailWindowMs: HOUR } },
    );
    customer = await signedIn(server, 'customer1', 'customer123');
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await server?.stop();
  });

  async function webhookOf(events: string[]) {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const reply = await customer.request('POST', '/webhooks/save', {
      json: { name: `Receiver ${receivers.length}`, url: receiver.url, events },
    });
    return { receiver, id: webhooks.saveWebhook.reply.parse(reply.body).dataObject.id };
  }

  async function labelled(name: string, count: number) {
    const orgId = server.accounts.customerId;
    const db = server.app.db.kysely;
    const [label] = await db
      .insertInto('labels')
      .values({ org_id: orgId, name, created_at: 0 })
      .returning('id')
      .execute();
    const panels = await insertPanels(server, orgId, count, name.toUpperCase(), {
      last_seen_at: server.clock.now() - HOUR,
    });
    for (let i = 0; i < panels.length; i += 200)
      await db
        .insertInto('label_devices')
        .values(
          panels.slice(i, i + 200).map((device_id) => ({ label_id: label!.id, device_id, org_id: orgId })),
        )
        .execute();
    return label!.id;
  }

  /** The deliveries the outbox holds for a webhook (written when the change is made). */
  const deliveriesOf = async (webhookId: number) =>
    server.app.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_type'])
      .where('webhook_id', '=', webhookId)
      .orderBy('id')
      .execute();

  const payloadOf = (receiver: Receiver, n: number) =>
    webhooks.webhookPayload.parse(JSON.parse(receiver.calls[n]!.body));

  const alertIds = (payload: webhooks.WebhookPayload) =>
    (payload.data as { alerts: alerts.Alert[] }).alerts.map((a) => a.id);

  it('sends one delivery per webhook for a storm under two rules, then one for its bulk acknowledgement', async () => {
    const subscribed = await webhookOf(['alert.raised', 'alert.acknowledged']);
    const named = await webhookOf(['panel.online']);
    const north = await ruleOf(customer, {
      name: 'North offline',
      labelIds: [await labelled('North', 300)],
      condition: { kind: 'offline', minutes: 10 },
      channels: { webhookIds: [named.id] },
    });
    const south = await ruleOf(customer, {
      name: 'South offline',
      labelIds: [await labelled('South', 200)],
      condition: { kind: 'offline', minutes: 10 },
    });

    expect(await server.app.alerts.evaluate()).toEqual({ raised: 500, cleared: 0 });
    expect((await deliveriesOf(subscribed.id)).map((d) => d.event_type)).toEqual(['alert.raised']);
    expect((await deliveriesOf(named.id)).map((d) => d.event_type)).toEqual(['alert.raised']);
    await waitFor(
      'one delivery at each receiver',
      () => subscribed.receiver.calls.length === 1 && named.receiver.calls.length === 1,
    );
    const storm = payloadOf(subscribed.receiver, 0);
    expect(subscribed.receiver.calls[0]!.headers['panelfleet-event']).toBe('alert.raised');
    expect(storm).toMatchObject({ type: 'alert.raised', data: { total: 500 } });
    const stormIds = alertIds(storm);
    expect(stormIds).toHaveLength(500);
    expect(stormIds).toEqual([...stormIds].sort((a, b) => a - b));
    const rulesOf = (payload: webhooks.WebhookPayload) =>
      new Set((payload.data as { alerts: alerts.Alert[] }).alerts.map((a) => a.ruleId));
    expect(rulesOf(storm)).toEqual(new Set([north.id, south.id]));
    // The named webhook hears of its rule's alerts only.
    const toNamed = payloadOf(named.receiver, 0);
    expect(toNamed.data).toMatchObject({ total: 300 });
    expect(rulesOf(toNamed)).toEqual(new Set([north.id]));

    // A round without changes sends nothing.
    expect(await server.app.alerts.evaluate()).toEqual({ raised: 0, cleared: 0 });
    expect(await deliveriesOf(subscribed.id)).toHaveLength(1);

    const ack = await customer.request('POST', '/alerts/acknowledge', {
      json: { ids: stormIds, note: 'Power cut in both wings' },
    });
    expect(ack.body).toMatchObject({ hhtStatus: 'success', dataObject: { changed: 500 } });
    expect((await deliveriesOf(subscribed.id)).map((d) => d.event_type)).toEqual([
      'alert.raised',
      'alert.acknowledged',
    ]);
    await waitFor(
      'the acknowledgement at each receiver',
      () => subscribed.receiver.calls.length === 2 && named.receiver.calls.length === 2,
    );
    const acknowledged = payloadOf(subscribed.receiver, 1);
    expect(acknowledged).toMatchObject({ type: 'alert.acknowledged', data: { total: 500 } });
    expect(alertIds(acknowledged)).toEqual(stormIds);
    expect(
      (acknowledged.data as { alerts: alerts.Alert[] }).alerts.every(
        (a) => a.state === 'acknowledged' && a.note === 'Power cut in both wings',
      ),
    ).toBe(true);
    expect(payloadOf(named.receiver, 1).data).toMatchObject({ total: 300 });

    // Redelivered by hand: the same event and list, signed anew.
    const [stormDelivery] = await deliveriesOf(subscribed.id);
    const again = await customer.post('/webhooks/redeliver', { id: String(stormDelivery!.id) });
    expect(again.body).toMatchObject({ hhtStatus: 'success' });
    expect(subscribed.receiver.calls).toHaveLength(3);
    expect(subscribed.receiver.calls[2]!.body).toBe(subscribed.receiver.calls[0]!.body);
  });

  it('lists at most WEBHOOK_MAX_ALERTS alerts in the one delivery and counts them all', async () => {
    const hook = await webhookOf(['alert.raised']);
    const over = webhooks.WEBHOOK_MAX_ALERTS + 1;
    const label = await labelled('Campus', over);
    await ruleOf(customer, {
      name: 'Campus offline',
      labelIds: [label],
      condition: { kind: 'offline', minutes: 10 },
    });
    expect(await server.app.alerts.evaluate()).toEqual({ raised: over, cleared: 0 });
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
    await waitFor('the delivery', () => hook.receiver.calls.length === 1);
    const payload = payloadOf(hook.receiver, 0);
    expect(payload.data).toMatchObject({ total: over });
    expect(alertIds(payload)).toHaveLength(webhooks.WEBHOOK_MAX_ALERTS);
  });
});
