import { webhooks } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

// Webhooks of an organisation (issue 26): made, listed, changed, deleted by its own users only,
// at most 20 of them however many saves arrive at once, the secret shown on create and rotate only,
// and addresses the deployment does not allow refused when saved.

const saved = (r: { body: unknown }) => webhooks.saveWebhook.reply.parse(r.body).dataObject;
const post = (client: TestClient, path: string, json: unknown) => client.request('POST', path, { json });

describe.each(backends)('webhooks CRUD and scope on %s', (backend) => {
  let server: TestServer;
  let strict: TestServer;
  let customer: TestClient;
  let operator: TestClient;
  let sales: TestClient;

  beforeAll(async () => {
    [server, strict] = await Promise.all([
      startServer(backend, { OUTBOUND_ALLOW_PRIVATE: '1' }),
      startServer(backend),
    ]);
    customer = await signedIn(server, 'customer1', 'customer123');
    operator = await signedIn(server, 'operator1', 'operator123');
    sales = await signedIn(server, 'sales1', 'sales123');
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), strict?.stop()]);
  });

  it('makes a webhook with its secret shown once, lists it to its organisation only', async () => {
    const made = saved(
      await post(customer, '/webhooks/save', {
        name: 'Ops receiver',
        url: 'http://127.0.0.1:9/hook',
        events: ['panel.offline', 'alert.raised'],
      }),
    );
    expect(made.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: 'Ops receiver', enabled: true, createdBy: 'customer1' });
    expect(made.events).toEqual(['panel.offline', 'alert.raised']);

    // The secret never comes back in a list; a user of the same company sees the webhook.
    const listed = webhooks.listWebhooks.reply.parse((await operator.get('/webhooks?start=1&size=20')).body);
    expect(listed.listObject.map((w) => w.id)).toContain(made.id);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    // Another organisation (the distributor) sees none of them.
    const theirs = webhooks.listWebhooks.reply.parse((await sales.get('/webhooks')).body);
    expect(theirs.listObject.map((w) => w.id)).not.toContain(made.id);

    // Changed by the owner, the secret stays (no secret in the reply).
    const changed = saved(
      await post(operator, '/webhooks/save', {
        id: made.id,
        name: 'Ops receiver 2',
        url: 'http://127.0.0.1:9/hook2',
        enabled: false,
        events: ['panel.online'],
      }),
    );
    expect(changed).toMatchObject({
      id: made.id,
      name: 'Ops receiver 2',
      enabled: false,
      events: ['panel.online'],
    });
    expect(changed.secret).toBeUndefined();

    // Rotation gives a new secret.
    const rotated = webhooks.rotateWebhookSecret.reply.parse(
      (await customer.post('/webhooks/rotateSecret', { id: String(made.id) })).body,
    ).dataObject.secret;
    expect(rotated).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated).not.toBe(made.secret);

    // Who made, changed and rotated it is in the organisation's operation log.
    const logged = await server.app.db.kysely
      .selectFrom('operation_logs')
      .select(['action', 'user_name', 'org_id'])
      .where('action', 'like', 'webhook.%')
      .orderBy('id')
      .execute();
    expect(logged.map((l) => [l.action, l.user_name])).toEqual([
      ['webhook.add', 'customer1'],
      ['webhook.update', 'operator1'],
      ['webhook.rotateSecret', 'customer1'],
    ]);
    expect(new Set(logged.map((l) => l.org_id))).toEqual(new Set([server.accounts.customerId]));
  });

  it('does not let another organisation see, change, rotate, test or delete a webhook', async () => {
    const made = saved(
      await post(customer, '/webhooks/save', { name: 'Private', url: 'http://127.0.0.1:9/p', events: [] }),
    );
    const notFound = { hhtStatus: 'fail', hhtMsg: 'The webhook does not exist' };
    expect(
      (await post(sales, '/webhooks/save', { id: made.id, name: 'Taken', url: 'http://127.0.0.1:9/x' })).body,
    ).toMatchObject(notFound);
    expect((await sales.post('/webhooks/rotateSecret', { id: String(made.id) })).body).toMatchObject(
      notFound,
    );
    expect((await sales.post('/webhooks/test', { id: String(made.id) })).body).toMatchObject(notFound);
    expect((await sales.get(`/webhooks/deliveries?webhookId=${made.id}`)).body).toMatchObject(notFound);
    expect((await sales.post('/webhooks/delete', { id: String(made.id) })).body).toMatchObject(notFound);
    const still = webhooks.listWebhooks.reply.parse((await customer.get('/webhooks?size=100')).body);
    expect(still.listObject.find((w) => w.id === made.id)?.name).toBe('Private');

    expect((await customer.post('/webhooks/delete', { id: String(made.id) })).body.hhtStatus).toBe('success');
    const after = webhooks.listWebhooks.reply.parse((await customer.get('/webhooks?size=100')).body);
    expect(after.listObject.map((w) => w.id)).not.toContain(made.id);
  });

  it('keeps at most 20 webhooks per organisation when 30 saves arrive at once', async () => {
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(sales, '/webhooks/save', { name: `Parallel ${i}`, url: 'http://127.0.0.1:9/q', events: [] }),
      ),
    );
    const ok = replies.filter((r) => r.body.hhtStatus === 'success').length;
    const refused = replies.filter(
      (r) => r.body.hhtMsg === 'Your organisation has the most webhooks it may have (20)',
    ).length;
    expect(ok).toBe(20);
    expect(refused).toBe(10);
    const list = webhooks.listWebhooks.reply.parse((await sales.get('/webhooks?size=100')).body);
    expect(list.totalRecords).toBe(20);
  });

  it('answers bad input with the envelope in the caller language, never a 500', async () => {
    const zh = await signedIn(server, 'manager1', 'manager123', 'zh-CN');
    const cases: Array<[unknown, string, string]> = [
      [{ name: '', url: 'http://127.0.0.1:9/' }, "Please enter the webhook's name", '请输入 Webhook 名称'],
      [
        { name: 'x', url: 'ftp://example.com/' },
        'The URL must be a valid http:// or https:// address',
        'URL 须为有效的 http:// 或 https:// 地址',
      ],
      [
        { name: 'x', url: 'not a url' },
        'The URL must be a valid http:// or https:// address',
        'URL 须为有效的 http:// 或 https:// 地址',
      ],
    ];
    for (const [json, en, cn] of cases) {
      const english = await post(customer, '/webhooks/save', json);
      expect(english.status).toBeLessThan(500);
      expect(english.body).toMatchObject({ hhtStatus: 'fail', hhtMsg: en });
      expect((await post(zh, '/webhooks/save', json)).body).toMatchObject({ hhtStatus: 'fail', hhtMsg: cn });
    }
    const badEvent = await post(customer, '/webhooks/save', {
      name: 'x',
      url: 'http://127.0.0.1:9/',
      events: ['ping'],
    });
    expect(badEvent.body.hhtStatus).toBe('fail');
    expect(badEvent.status).toBeLessThan(500);
    for (const path of [
      '/webhooks/delete',
      '/webhooks/rotateSecret',
      '/webhooks/test',
      '/webhooks/redeliver',
    ]) {
      const bad = await customer.post(path, { id: 'abc' });
      expect(bad.status).toBeLessThan(500);
      expect(bad.body.hhtStatus).toBe('fail');
    }
    expect((await customer.post('/webhooks/redeliver', { id: '999999' })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'The delivery does not exist',
    });
    expect((await customer.get('/webhooks/deliveries?webhookId=1&state=lost')).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'Choose a delivery state',
    });
  });

  it('refuses link-local, metadata and (without the setting) private addresses when saved', async () => {
    const strictClient = await signedIn(strict, 'customer1', 'customer123');
    const refusal = { hhtStatus: 'fail', hhtMsg: expect.stringContaining('This address is not allowed') };
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://0.0.0.0:8080/',
      'http://[::ffff:169.254.169.254]/',
    ]) {
      // Refused even where private receivers are allowed.
      expect((await post(customer, '/webhooks/save', { name: 'm', url })).body, url).toMatchObject(refusal);
      expect((await post(strictClient, '/webhooks/save', { name: 'm', url })).body, url).toMatchObject(
        refusal,
      );
    }
    for (const url of [
      'http://10.1.2.3/',
      'http://127.0.0.1:9/',
      'http://localhost:9/',
      'http://192.168.1.10/',
      'http://[::1]:9/',
    ]) {
      expect((await post(strictClient, '/webhooks/save', { name: 'p', url })).body, url).toMatchObject(
        refusal,
      );
    }
    expect(
      (await post(customer, '/webhooks/save', { name: 'p', url: 'http://10.1.2.3/' })).body.hhtStatus,
    ).toBe('success');
  });
});
