import { webhooks } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './device-helpers.js';
import { backends, joinServer, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

// Webhooks with two instances on one PostgreSQL database (issue 26): a presence change that both
// instances hear is delivered once; each attempt of a retry schedule is made by one instance;
// and a schedule begun by an instance that goes away is finished by another.

const env = { OUTBOUND_ALLOW_PRIVATE: '1', WEBHOOK_POLL_MS: '20' };

describe.runIf(backends.includes('postgres'))('webhooks with two instances', () => {
  let a: TestServer;
  let b: TestServer;
  let customer: TestClient;
  const receivers: Receiver[] = [];
  let device = 5000;

  beforeAll(async () => {
    a = await startServer('postgres', env);
    b = await joinServer(a, env);
    customer = await signedIn(a, 'customer1', 'customer123');
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await b?.stop();
    await a?.stop();
  });

  async function webhookTo(receiver: Receiver) {
    receivers.push(receiver);
    const reply = await customer.request('POST', '/webhooks/save', {
      json: { name: `Receiver ${receivers.length}`, url: receiver.url, events: ['panel.offline'] },
    });
    return webhooks.saveWebhook.reply.parse(reply.body).dataObject;
  }

  async function deliveriesOf(webhookId: number) {
    const reply = await customer.get(`/webhooks/deliveries?webhookId=${webhookId}&size=100`);
    return webhooks.listWebhookDeliveries.reply.parse(reply.body).listObject;
  }

  /** What an instance's gateway publishes when it sees the panel go (each instance on its own). */
  function offlineOn(server: TestServer, deviceId: number, at: number) {
    server.app.events.publish({
      kind: 'live',
      orgId: a.accounts.customerId,
      event: { type: 'presence', deviceId, deviceKey: `key-${deviceId}`, online: false, at },
      local: true,
    });
  }

  const countBy = (values: string[]) => {
    const counts = new Map<string, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    return counts;
  };

  it('a webhook made through one instance gets what the other hears next', async () => {
    // b hears a change while nobody subscribes, and keeps that answer ...
    offlineOn(b, ++device, b.clock.now());
    await new Promise((resolve) => setTimeout(resolve, 200));
    const receiver = await startReceiver();
    const webhook = await webhookTo(receiver);
    // ... until a's save tells every instance that the subscriptions changed.
    const heard = ++device;
    await waitFor('b hears the new webhook', async () => {
      offlineOn(b, heard, b.clock.now());
      return (await deliveriesOf(webhook.id)).length > 0;
    });
    const delivered = await waitFor('the delivery', async () => {
      const list = await deliveriesOf(webhook.id);
      return list[0]?.state === 'succeeded' && list;
    });
    expect(delivered).toHaveLength(1);
    expect(receiver.calls).toHaveLength(1);
  });

  it('delivers a presence change both instances hear once', async () => {
    const receiver = await startReceiver();
    const webhook = await webhookTo(receiver);
    // The middle of a presence window; the instances hear it a few milliseconds apart.
    const at = Math.floor(a.clock.now() / 10_000) * 10_000 + 5_000;
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      const deviceId = ++device;
      ids.push(deviceId);
      offlineOn(a, deviceId, at);
      offlineOn(b, deviceId, at + 3);
    }
    const done = await waitFor('30 deliveries', async () => {
      const list = await deliveriesOf(webhook.id);
      return list.length === 30 && list.every((d) => d.state === 'succeeded') && list;
    });
    expect(done).toHaveLength(30);
    expect(receiver.calls).toHaveLength(30);
    const devices = receiver.calls.map((c) => {
      const { data } = webhooks.webhookPayload.parse(JSON.parse(c.body));
      return 'device' in data ? data.device.id : 0;
    });
    expect(new Set(devices)).toEqual(new Set(ids));
  });

  it('makes each attempt of a retry schedule once across instances', async () => {
    // Every delivery's first attempt fails, its second succeeds.
    const attempted = new Set<string>();
    const failing = await startReceiver((_n, call) => {
      const delivery = String(call.headers['panelfleet-delivery']);
      const first = !attempted.has(delivery);
      attempted.add(delivery);
      return { status: first ? 500 : 200 };
    });
    const flaky = await webhookTo(failing);
    const at = a.clock.now();
    // b learns of the webhook saved through a by the bus; until then it delivers to the others only.
    const probe = ++device;
    await waitFor('b hears the new webhook', async () => {
      offlineOn(b, probe, at);
      return (await deliveriesOf(flaky.id)).length > 0;
    });
    for (let i = 0; i < 40; i++) offlineOn(i % 2 ? a : b, ++device, at);
    const DELIVERIES = 41;
    // What is checked is once-ness, not speed: on a loaded machine 41 attempts may take a while.
    await waitFor(
      `${DELIVERIES} first attempts`,
      async () => {
        const list = await deliveriesOf(flaky.id);
        return list.length === DELIVERIES && list.every((d) => d.state === 'retrying');
      },
      60_000,
    );
    a.clock.advance(30_000);
    b.clock.advance(30_000);
    const done = await waitFor(
      `${DELIVERIES} retries`,
      async () => {
        const list = await deliveriesOf(flaky.id);
        return list.length === DELIVERIES && list.every((d) => d.state === 'succeeded') && list;
      },
      60_000,
    );
    expect(done.every((d) => d.attempts === 2)).toBe(true);
    const perDelivery = countBy(failing.calls.map((c) => String(c.headers['panelfleet-delivery'])));
    expect(perDelivery.size).toBe(DELIVERIES);
    // Each delivery was attempted exactly twice (one failure, one success).
    expect([...perDelivery.values()].every((n) => n === 2)).toBe(true);
  }, 150_000);

  it('finishes a retry schedule begun by an instance that went away', async () => {
    const receiver = await startReceiver((n) => ({ status: n === 0 ? 503 : 200 }));
    const webhook = await webhookTo(receiver);
    // Only b hears it and makes the first attempt.
    offlineOn(b, ++device, b.clock.now());
    const [first] = await waitFor('the first attempt', async () => {
      const list = await deliveriesOf(webhook.id);
      return list[0]?.state === 'retrying' && list;
    });
    await b.stop();
    b = await joinServer(a, env);
    a.clock.advance(30_000);
    b.clock.advance(30_000);
    const [finished] = await waitFor('the retry', async () => {
      const list = await deliveriesOf(webhook.id);
      return list[0]?.state === 'succeeded' && list;
    });
    expect(finished).toMatchObject({ id: first!.id, attempts: 2 });
    expect(receiver.calls).toHaveLength(2);
  });
});
