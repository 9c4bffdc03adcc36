import { execFileSync } from 'node:child_process';
import { webhooks } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { startReceiver, type Answer, type Receiver } from './webhook-receiver.js';

// Signed deliveries to local receivers (issue 26): the signature checked by Python's hmac module,
// not the server's code; retries on the test clock; the delivery log; redelivery; the webhook
// turned off after repeated failure with a mail to its creator; a receiver that never answers;
// a slow receiver that holds up no other.

/** Python's own HMAC-SHA256 over "<t>.<body>": an implementation independent of the server's. */
function pythonSignature(secret: string, t: string, body: string): string {
  const script = [
    'import hmac, hashlib, json, sys',
    'd = json.load(sys.stdin)',
    "print(hmac.new(d['secret'].encode(), (d['t'] + '.' + d['body']).encode(), hashlib.sha256).hexdigest())",
  ].join('\n');
  return execFileSync('python3', ['-c', script], { input: JSON.stringify({ secret, t, body }) })
    .toString()
    .trim();
}

describe.each(backends)('webhook deliveries on %s', (backend) => {
  let server: TestServer;
  let sink: SmtpSink;
  let customer: TestClient;
  const receivers: Receiver[] = [];
  let device = 1000;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startServer(backend, {
      OUTBOUND_ALLOW_PRIVATE: '1',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_DISABLE_AFTER: '2',
      SMTP_URL: sink.url,
    });
    customer = await signedIn(server, 'customer1', 'customer123');
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await server?.stop();
    await sink?.close();
  });

  async function receiverAndWebhook(answer: (n: number) => Answer, events: string[] = ['panel.offline']) {
    const receiver = await startReceiver(answer);
    receivers.push(receiver);
    const reply = await customer.request('POST', '/webhooks/save', {
      json: { name: `Receiver ${receivers.length}`, url: receiver.url, events },
    });
    const made = webhooks.saveWebhook.reply.parse(reply.body).dataObject;
    return { receiver, webhook: made, secret: made.secret! };
  }

  /** A panel of the company goes offline, as every instance's gateway publishes it. */
  function panelOffline() {
    const deviceId = ++device;
    server.app.events.publish({
      kind: 'live',
      orgId: server.accounts.customerId,
      event: {
        type: 'presence',
        deviceId,
        deviceKey: `key-${deviceId}`,
        online: false,
        at: server.clock.now(),
      },
      local: true,
    });
    return deviceId;
  }

  async function deliveriesOf(webhookId: number) {
    const reply = await customer.get(`/webhooks/deliveries?webhookId=${webhookId}&size=100`);
    return webhooks.listWebhookDeliveries.reply.parse(reply.body).listObject;
  }

  const remove = (id: number) => customer.post('/webhooks/delete', { id: String(id) });

  it('signs each delivery as documented: Python computes the same HMAC, a changed body does not match', async () => {
    const { receiver, webhook, secret } = await receiverAndWebhook(() => ({ status: 204 }));
    const deviceId = panelOffline();
    await waitFor('the delivery', () => receiver.calls.length === 1);
    const { headers, body } = receiver.calls[0]!;
    expect(headers['panelfleet-event']).toBe('panel.offline');
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['panelfleet-signature']))!;
    expect(Number(t)).toBe(Math.floor(server.clock.now() / 1000));
    expect(v1).toBe(pythonSignature(secret, t!, body));
    expect(v1).not.toBe(pythonSignature(secret, t!, body.replace('"online":false', '"online":true')));
    expect(v1).not.toBe(pythonSignature(`${secret}x`, t!, body));

    const payload = webhooks.webhookPayload.parse(JSON.parse(body));
    expect(payload).toMatchObject({
      version: 1,
      type: 'panel.offline',
      organisationId: server.accounts.customerId,
      data: { device: { id: deviceId, key: `key-${deviceId}` }, online: false },
    });
    expect(payload.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const [logged] = await waitFor('the logged success', async () => {
      const list = await deliveriesOf(webhook.id);
      return list[0]?.state === 'succeeded' && list;
    });
    expect(logged).toMatchObject({
      attempts: 1,
      httpStatus: 204,
      error: null,
      eventId: payload.id,
      nextAttemptAt: null,
    });
    expect(String(headers['panelfleet-delivery'])).toBe(String(logged!.id));
    await remove(webhook.id);
  });

  it('retries a failed delivery 30 s later with the same delivery and body, then redelivers by hand', async () => {
    const { receiver, webhook } = await receiverAndWebhook((n) => ({ status: n === 0 ? 500 : 200 }));
    panelOffline();
    const first = await waitFor('the first failed attempt', async () => {
      const [d] = await deliveriesOf(webhook.id);
      return d?.state === 'retrying' && d;
    });
    expect(first).toMatchObject({ attempts: 1, httpStatus: 500 });
    expect(first.error).toContain('HTTP 500');
    expect(first.nextAttemptAt! - first.lastAttemptAt!).toBe(30_000);

    server.clock.advance(30_000);
    const second = await waitFor('the retry', async () => {
      const [d] = await deliveriesOf(webhook.id);
      return d?.state === 'succeeded' && d;
    });
    expect(second).toMatchObject({ attempts: 2, httpStatus: 200, error: null, id: first.id });
    expect(receiver.calls).toHaveLength(2);
    expect(receiver.calls[1]!.body).toBe(receiver.calls[0]!.body);
    expect(receiver.calls[1]!.headers['panelfleet-delivery']).toBe(
      receiver.calls[0]!.headers['panelfleet-delivery'],
    );

    const again = webhooks.redeliver.reply.parse(
      (await customer.post('/webhooks/redeliver', { id: String(first.id) })).body,
    );
    expect(again.dataObject.deliveryId).toBe(first.id);
    // Attempted before the reply.
    expect(receiver.calls).toHaveLength(3);
    expect(receiver.calls[2]!.body).toBe(receiver.calls[0]!.body);
    expect((await deliveriesOf(webhook.id))[0]).toMatchObject({ attempts: 3, state: 'succeeded' });

    // Every attempt is in the log, with its time, status and error in words.
    const attempts = webhooks.listDeliveryAttempts.reply.parse(
      (await customer.get(`/webhooks/attempts?deliveryId=${first.id}`)).body,
    ).listObject;
    expect(attempts.map((a) => a.httpStatus)).toEqual([500, 200, 200]);
    expect(attempts[0]!.error).toContain('HTTP 500');
    expect(attempts[1]!.at - attempts[0]!.at).toBe(30_000);
    expect(attempts.slice(1).every((a) => a.error === null && a.durationMs !== null)).toBe(true);
    const sales = await signedIn(server, 'sales1', 'sales123');
    expect((await sales.get(`/webhooks/attempts?deliveryId=${first.id}`)).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The delivery does not exist',
    });
    expect((await sales.post('/webhooks/redeliver', { id: String(first.id) })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The delivery does not exist',
    });
    await remove(webhook.id);
  });

  it('turns a webhook off after repeated failed deliveries and mails its creator', async () => {
    const { receiver, webhook } = await receiverAndWebhook(() => ({ status: 503 }));
    panelOffline();
    panelOffline();
    await waitFor('both first attempts', async () => {
      const list = await deliveriesOf(webhook.id);
      return list.length === 2 && list.every((d) => d.state === 'retrying');
    });
    // Past the 24-hour retry window: the next attempt is each delivery's last.
    server.clock.advance(25 * 3_600_000);
    // A day later the session has ended too.
    customer = await signedIn(server, 'customer1', 'customer123');
    const failed = await waitFor('both deliveries to fail', async () => {
      const list = await deliveriesOf(webhook.id);
      return list.every((d) => d.state === 'failed') && list;
    });
    expect(failed.map((d) => d.attempts)).toEqual([2, 2]);
    expect(failed[0]!.error).toContain('no more retries');
    // The webhook is turned off just after the failure that reaches the limit is recorded (its
    // own statement, with the reason in words): the list may show the count a moment before.
    const state = await waitFor('the webhook turned off', async () => {
      const [listed] = webhooks.listWebhooks.reply
        .parse((await customer.get('/webhooks?size=100')).body)
        .listObject.filter((w) => w.id === webhook.id);
      return listed && !listed.enabled ? listed : undefined;
    });
    expect(state).toMatchObject({ enabled: false, consecutiveFailures: 2 });
    expect(state!.disabledReason).toContain('2 deliveries in a row failed');
    await waitFor('the mail to the creator', () =>
      sink.recipients.some((r) => r.includes('customer1@example.com')),
    );
    // Turned off: a new event is not delivered to it.
    const calls = receiver.calls.length;
    panelOffline();
    const onAgain = await customer.request('POST', '/webhooks/save', {
      json: { id: webhook.id, name: webhook.name, url: webhook.url, events: ['panel.online'], enabled: true },
    });
    expect(webhooks.saveWebhook.reply.parse(onAgain.body).dataObject).toMatchObject({
      enabled: true,
      disabledReason: null,
      consecutiveFailures: 0,
    });
    expect(await deliveriesOf(webhook.id)).toHaveLength(2);
    expect(receiver.calls).toHaveLength(calls);
    await remove(webhook.id);
  });

  it('records a timeout for a receiver that never answers (a test event)', async () => {
    const { webhook } = await receiverAndWebhook(() => 'hang', []);
    const reply = webhooks.testWebhook.reply.parse(
      (await customer.post('/webhooks/test', { id: String(webhook.id) })).body,
    );
    const [logged] = await deliveriesOf(webhook.id);
    expect(logged).toMatchObject({
      id: reply.dataObject.deliveryId,
      eventType: 'ping',
      state: 'retrying',
      httpStatus: null,
    });
    expect(logged!.error).toContain('timeout');
    await remove(webhook.id);
  });

  it('lets a slow receiver (2 s per answer) hold up no other webhook', async () => {
    const slow = await receiverAndWebhook(() => ({ status: 200, afterMs: 2000 }));
    const fast = await receiverAndWebhook(() => ({ status: 200 }));
    for (let i = 0; i < 6; i++) panelOffline();
    await waitFor('every delivery to the fast receiver', () => fast.receiver.calls.length === 6);
    // The slow one is still at its first answers (at most two of its attempts at once).
    expect(slow.receiver.calls.length).toBeLessThanOrEqual(2);
    expect((await customer.get('/webhooks')).body.hhtStatus).toBe('success');
    await waitFor('every delivery to the slow receiver', () => slow.receiver.calls.length === 6, 30_000);
    await Promise.all([remove(slow.webhook.id), remove(fast.webhook.id)]);
  });

  it('sends final command results once, task progress at most once per 10 s, task finished once, to the distributor too', async () => {
    const sales = await signedIn(server, 'sales1', 'sales123');
    const receiver = await startReceiver();
    receivers.push(receiver);
    const made = webhooks.saveWebhook.reply.parse(
      (
        await sales.request('POST', '/webhooks/save', {
          json: {
            name: 'Distributor',
            url: receiver.url,
            events: ['command.result', 'task.progress', 'task.finished'],
          },
        })
      ).body,
    ).dataObject;
    const orgId = server.accounts.customerId;
    const at = server.clock.now();
    const command = (status: 'delivered' | 'failed') =>
      server.app.events.publish({
        kind: 'live',
        orgId,
        event: { type: 'command', commandId: 'c-1', deviceId: 7, order: 'reboot', status, detail: 'x', at },
      });
    const progress = (done: number, finished: boolean, plus = 0) =>
      server.app.events.publish({
        kind: 'live',
        orgId,
        event: {
          type: 'taskProgress',
          kind: 'ota',
          taskId: '42',
          done,
          failed: 0,
          total: 10,
          finished,
          at: at + plus,
        },
      });
    command('delivered');
    command('failed');
    command('failed');
    progress(1, false);
    progress(2, false, 1);
    progress(10, true, 2);
    progress(10, true, 3);
    const types = await waitFor('the deliveries', async () => {
      const list = await sales.get(`/webhooks/deliveries?webhookId=${made.id}&size=100`);
      const rows = webhooks.listWebhookDeliveries.reply.parse(list.body).listObject;
      return (
        rows.length >= 3 && rows.every((r) => r.state === 'succeeded') && rows.map((r) => r.eventType).sort()
      );
    });
    expect(types).toEqual(['command.result', 'task.finished', 'task.progress']);
    const bodies = receiver.calls.map((c) => webhooks.webhookPayload.parse(JSON.parse(c.body)));
    expect(bodies.find((b) => b.type === 'command.result')).toMatchObject({
      organisationId: server.accounts.distributorId,
      data: { commandId: 'c-1', status: 'failed', order: 'reboot' },
    });
    expect(bodies.find((b) => b.type === 'task.progress')?.data).toMatchObject({
      task: { kind: 'ota', id: '42' },
      done: 1,
    });
  });
});
