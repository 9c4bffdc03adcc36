import { webhooks, type alerts } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryRepository } from '../src/modules/webhooks/delivery-repository.js';
import { Outbox } from '../src/modules/webhooks/outbox.js';
import { WebhookRepository } from '../src/modules/webhooks/repository.js';
import { waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

// The seam alerts use (issue 26): emitAlerts(type, items) writes one delivery per receiving
// webhook listing its alerts (the organisation's subscribers get all of them, a named webhook of
// the organisation those of the rules naming it), and the server's workers send them; ownedIds
// tells which ids are the organisation's webhooks.

describe.each(backends)('emit and ownedIds on %s', (backend) => {
  let server: TestServer;
  let customer: TestClient;
  let sales: TestClient;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    server = await startServer(backend, { OUTBOUND_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: '20' });
    [customer, sales] = await Promise.all([
      signedIn(server, 'customer1', 'customer123'),
      signedIn(server, 'sales1', 'sales123'),
    ]);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await server?.stop();
  });

  async function webhookOf(client: TestClient, events: string[]) {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const reply = await client.request('POST', '/webhooks/save', {
      json: { name: `Receiver ${receivers.length}`, url: receiver.url, events },
    });
    return { receiver, id: webhooks.saveWebhook.reply.parse(reply.body).dataObject.id };
  }

  it('delivers to the subscribers and to the named webhooks of the organisation only', async () => {
    const subscribed = await webhookOf(customer, ['alert.raised']);
    const named = await webhookOf(customer, ['panel.online']);
    const other = await webhookOf(customer, ['alert.cleared']);
    const foreign = await webhookOf(sales, ['alert.raised']);
    const db = server.app.db;
    const outbox = new Outbox({
      webhooks: new WebhookRepository(db.kysely, db.dialect),
      deliveries: new DeliveryRepository(db.kysely, db.dialect),
      clock: server.clock,
      // The server's own workers poll for it.
      wake: () => undefined,
    });
    const orgId = server.accounts.customerId;
    const ids = [subscribed.id, named.id, other.id, foreign.id];
    expect((await new WebhookRepository(db.kysely, db.dialect).ownedIds(orgId, ids)).sort()).toEqual(
      [subscribed.id, named.id, other.id].sort(),
    );

    const alert: alerts.Alert = {
      id: 7,
      ruleId: 3,
      ruleName: 'Offline panels',
      kind: 'offline',
      severity: 'major',
      state: 'active',
      subject: { type: 'device', id: '12', name: 'Room 204', deviceKey: 'PF-12' },
      companyId: orgId,
      companyName: 'Riverside School',
      detailKey: 'alert.detail.offline',
      detailVars: { minutes: 15 },
      raisedAt: server.clock.now(),
      lastSeenAt: server.clock.now(),
      acknowledgedAt: null,
      acknowledgedBy: null,
      note: null,
      clearedAt: null,
      clearedBy: null,
    };
    const unnamed = { ...alert, id: 8, ruleId: 4 };
    expect(
      await outbox.emitAlerts('alert.raised', [
        { orgId, alert: unnamed, alsoTo: [] },
        { orgId, alert, alsoTo: [named.id, foreign.id] },
      ]),
    ).toBe(2);
    await waitFor(
      'the two deliveries',
      () => subscribed.receiver.calls.length === 1 && named.receiver.calls.length === 1,
    );
    const payload = webhooks.webhookPayload.parse(JSON.parse(subscribed.receiver.calls[0]!.body));
    expect(payload).toMatchObject({
      type: 'alert.raised',
      organisationId: orgId,
      data: { alerts: [alert, unnamed], total: 2 },
    });
    expect(JSON.parse(named.receiver.calls[0]!.body)).toMatchObject({
      id: payload.id,
      data: { alerts: [alert], total: 1 },
    });
    // Written in the same call: the others had no delivery then, and have none now.
    const logOf = async (client: TestClient, id: number) =>
      webhooks.listWebhookDeliveries.reply.parse(
        (await client.get(`/webhooks/deliveries?webhookId=${id}`)).body,
      ).totalRecords;
    expect(await logOf(customer, other.id)).toBe(0);
    expect(await logOf(sales, foreign.id)).toBe(0);
    expect(other.receiver.calls).toHaveLength(0);
    expect(foreign.receiver.calls).toHaveLength(0);

    // Finished deliveries go from the log after their time, with their attempts.
    await waitFor('both logged as sent', async () => (await logOf(customer, subscribed.id)) === 1);
    const deliveries = new DeliveryRepository(db.kysely, db.dialect);
    const attemptsLeft = async () =>
      (await db.kysely.selectFrom('webhook_attempts').select('id').execute()).length;
    await waitFor('the attempts recorded', async () => (await attemptsLeft()) === 2);
    expect(await deliveries.prune(server.clock.now() - 1)).toBe(0);
    expect(await deliveries.prune(server.clock.now() + 1)).toBe(2);
    expect(await logOf(customer, subscribed.id)).toBe(0);
    expect(await attemptsLeft()).toBe(0);
  });
});
