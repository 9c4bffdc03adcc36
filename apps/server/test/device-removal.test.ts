import mqtt from 'mqtt';
import { device, translate } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBare, enroll, enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, signedIn, startServer, type TestClient, type TestServer } from './harness.js';

/**
 * Issue 25 item 13: panels can be removed, not only disabled, keeping their history or deleting
 * it; either way the panel's access ends (its broker session too) and the console no longer
 * lists it.
 */
describe.each(backends)('removing a panel on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let secret: string;
  let orgId: number;

  const row = (key: string) =>
    server.app.db.kysely
      .selectFrom('devices')
      .select(['id', 'org_id', 'state', 'removed_from'])
      .where('device_key', '=', key)
      .executeTakeFirst();
  const history = (deviceId: number) =>
    server.app.db.kysely
      .selectFrom('screen_time')
      .select(['org_id', 'screen_on_ms'])
      .where('device_id', '=', deviceId)
      .execute();
  const listed = async (client: TestClient) =>
    device.listDevices.reply
      .parse((await client.get('/platform/device/list?start=1&size=100')).body)
      .listObject.map((d) => d.deviceKey);
  const mqttLogin = (key: string, password: string) =>
    mqtt
      .connectAsync(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, {
        clientId: key,
        username: key,
        password,
        reconnectPeriod: 0,
      })
      .then(
        async (client) => (await client.endAsync(), 'accepted'),
        (err: Error) => err.message,
      );

  /** An enrolled panel with a stored hour of screen time (what it reported). */
  async function panelWithHistory(key: string) {
    const creds = await enroll(server.url, key, secret);
    const found = (await row(key))!;
    orgId = found.org_id;
    await server.app.db.kysely
      .insertInto('screen_time')
      .values({
        org_id: found.org_id,
        device_id: found.id,
        from_at: 1_700_000_000_000,
        to_at: 1_700_003_600_000,
        screen_on_ms: 3_600_000,
        report_id: `${key}-1`,
      })
      .execute();
    return { creds, id: found.id };
  }

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    secret = await enrollmentSecretOf(operator);
  });
  afterAll(() => server?.stop());

  it('keeping its history: it leaves the list, its session ends, its history stays; enrolled again it comes back with it', async () => {
    const { creds, id } = await panelWithHistory('REMOVE-KEEP');
    const panel = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, creds);
    let closed = false;
    panel.client.on('close', () => (closed = true));
    await waitFor('online', () => server.app.devices.gateway.isOnline('REMOVE-KEEP'));
    expect(await listed(operator)).toContain('REMOVE-KEEP');

    const reply = await operator.post('/platform/device/remove', { deviceId: String(id), keepHistory: '1' });
    expect(reply.body).toMatchObject({
      hhtStatus: 'success',
      hhtMsg: translate('en-US', 'deviceManage.removed'),
      dataObject: { deviceId: id, historyKept: '1' },
    });
    await waitFor('the removed panel disconnected', () => closed);
    expect(await mqttLogin('REMOVE-KEEP', creds.password)).toMatch(/Bad username or password/);
    expect(await listed(operator)).not.toContain('REMOVE-KEEP');
    expect((await operator.get(`/platform/device/selectByDeviceId?deviceId=${id}`)).body).toMatchObject({
      hhtStatus: 'fail',
    });
    const kept = (await row('REMOVE-KEEP'))!;
    expect(kept).toMatchObject({ state: 0, removed_from: orgId });
    expect(kept.org_id).not.toBe(orgId);
    expect(await history(id)).toEqual([{ org_id: orgId, screen_on_ms: 3_600_000 }]);
    const logged = await server.app.db.kysely
      .selectFrom('operation_logs')
      .select(['action', 'content'])
      .where('action', '=', 'device.remove')
      .execute();
    expect(logged).toHaveLength(1);
    expect(logged[0]!.content).toContain('REMOVE-KEEP');

    // The company enrolls the serial again: the same panel, enabled, with its history.
    const again = await enroll(server.url, 'REMOVE-KEEP', secret);
    expect(await row('REMOVE-KEEP')).toMatchObject({ id, org_id: orgId, state: 1, removed_from: null });
    expect(await listed(operator)).toContain('REMOVE-KEEP');
    expect(await history(id)).toHaveLength(1);
    expect(await mqttLogin('REMOVE-KEEP', again.password)).toBe('accepted');
  });

  it('deleting its history: the panel and everything it reported go; the words are the caller language', async () => {
    const { creds, id } = await panelWithHistory('REMOVE-ALL');
    const zh = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    const reply = await zh.post('/platform/device/remove', { deviceId: String(id), keepHistory: '0' });
    expect(reply.body).toMatchObject({
      hhtStatus: 'success',
      hhtMsg: translate('zh-CN', 'deviceManage.removedWithHistory'),
      dataObject: { deviceId: id, historyKept: '0' },
    });
    expect(await row('REMOVE-ALL')).toBeUndefined();
    expect(await history(id)).toEqual([]);
    expect(await listed(operator)).not.toContain('REMOVE-ALL');
    expect(await mqttLogin('REMOVE-ALL', creds.password)).toMatch(/Bad username or password/);
    // The serial is free: it enrolls as a new panel.
    await enroll(server.url, 'REMOVE-ALL', secret);
    expect((await row('REMOVE-ALL'))!.id).not.toBe(id);
  });

  it('refuses without the choice, an unknown or foreign panel, and a type that does not operate panels', async () => {
    const { id } = await panelWithHistory('REMOVE-NOT');
    expect((await operator.post('/platform/device/remove', { deviceId: String(id) })).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: translate('en-US', 'deviceManage.removeChoice'),
    });
    expect(
      (await operator.post('/platform/device/remove', { deviceId: '987654', keepHistory: '0' })).body,
    ).toMatchObject({ hhtStatus: 'fail', hhtMsg: translate('en-US', 'device.notFound') });
    const sales = await signedIn(server, 'sales1', 'sales123');
    const refused = await sales.post('/platform/device/remove', { deviceId: String(id), keepHistory: '0' });
    expect(refused.status).toBe(403);
    expect(await row('REMOVE-NOT')).toMatchObject({ id, org_id: orgId, state: 1 });
  });
});
