import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';

const closedFlag = (panel: BareDevice) => {
  const state = { closed: false };
  panel.client.on('close', () => (state.closed = true));
  return state;
};

async function editState(server: TestServer, operator: TestClient, key: string, state: '0' | '1') {
  const row = await server.app.db.kysely
    .selectFrom('devices')
    .select('id')
    .where('device_key', '=', key)
    .executeTakeFirstOrThrow();
  const reply = await operator.post('/platform/device/update', {
    deviceId: String(row.id),
    deviceName: key,
    deviceKey: key,
    tag: 'revocation',
    state,
  });
  expect(reply.body).toMatchObject({ hhtStatus: 'success' });
}

const brightnessOf = async (server: TestServer, key: string) => {
  await server.app.devices.gateway.flushState();
  return (
    await server.app.db.kysely
      .selectFrom('devices')
      .select('brightness')
      .where('device_key', '=', key)
      .executeTakeFirst()
  )?.brightness;
};

describe.each(backends)('a panel losing its right to connect, embedded broker on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let secret: string;
  let mqttUrl: string;
  const refusedLogin = (key: string, password: string) =>
    mqtt.connectAsync(mqttUrl, { clientId: key, username: key, password, reconnectPeriod: 0 }).then(
      async (client) => (await client.endAsync(), 'accepted'),
      (err: Error) => err.message,
    );

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    secret = await enrollmentSecretOf(operator);
    mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
  });
  afterAll(() => server.stop());

  it('disconnects a panel disabled in the console and lets it in again once enabled', async () => {
    const creds = await enroll(server.url, 'REVOKE-OFF', secret);
    const panel = await connectBare(mqttUrl, creds);
    const flag = closedFlag(panel);
    await waitFor('online', () => server.app.devices.gateway.isOnline('REVOKE-OFF'));
    await editState(server, operator, 'REVOKE-OFF', '0');
    await waitFor('the disabled panel disconnected', () => flag.closed);
    await waitFor('offline', () => !server.app.devices.gateway.isOnline('REVOKE-OFF'));
    expect(await refusedLogin('REVOKE-OFF', creds.password)).toMatch(/Bad username or password/);
    await editState(server, operator, 'REVOKE-OFF', '1');
    expect(await refusedLogin('REVOKE-OFF', creds.password)).toBe('accepted');
  });

  it('disconnects the old connection of a re-enrolled panel; only the new password works', async () => {
    const first = await enroll(server.url, 'REVOKE-NEW', secret);
    const panel = await connectBare(mqttUrl, first);
    const flag = closedFlag(panel);
    await waitFor('online', () => server.app.devices.gateway.isOnline('REVOKE-NEW'));
    const second = await enroll(server.url, 'REVOKE-NEW', secret);
    await waitFor('the old connection closed', () => flag.closed);
    expect(await refusedLogin('REVOKE-NEW', first.password)).toMatch(/Bad username or password/);
    expect(await refusedLogin('REVOKE-NEW', second.password)).toBe('accepted');
  });

  it('disconnects a deleted panel and stores nothing more from it', async () => {
    const creds = await enroll(server.url, 'REVOKE-DEL', secret);
    const panel = await connectBare(mqttUrl, creds);
    const flag = closedFlag(panel);
    await waitFor('online', () => server.app.devices.gateway.isOnline('REVOKE-DEL'));
    await server.app.db.kysely.deleteFrom('devices').where('device_key', '=', 'REVOKE-DEL').execute();
    server.app.devices.access.removed('REVOKE-DEL');
    await waitFor('the deleted panel disconnected', () => flag.closed);
    expect(await refusedLogin('REVOKE-DEL', creds.password)).toMatch(/Bad username or password/);
  });
});

describe.runIf(hasMosquitto).each(backends)(
  'a disabled panel behind an external broker without provisioning, on %s',
  (backend) => {
    let broker: ThrowawayMosquitto;
    let server: TestServer;
    let operator: TestClient;
    beforeAll(async () => {
      broker = await ThrowawayMosquitto.start();
      server = await startServer(backend, { MQTT_URL: broker.url });
      operator = await operatorClient(server);
    });
    afterAll(async () => {
      await server?.stop();
      await broker?.dispose();
    });

    it('no longer stores its messages (the broker itself still lets it in)', async () => {
      const creds = await enroll(server.url, 'EXT-OFF-01', await enrollmentSecretOf(operator));
      const panel = await connectBare(broker.url, creds);
      await panel.client.publishAsync(
        'pf/v1/d/EXT-OFF-01/state',
        JSON.stringify(fullState({ brightness: 11 })),
        { qos: 1 },
      );
      await waitFor('the first report stored', async () => (await brightnessOf(server, 'EXT-OFF-01')) === 11);

      await editState(server, operator, 'EXT-OFF-01', '0');
      const stats = server.app.devices.gateway.stats;
      const dropped = stats.dropped;
      await panel.client.publishAsync('pf/v1/d/EXT-OFF-01/state', JSON.stringify({ v: 1, brightness: 22 }), {
        qos: 1,
      });
      await panel.client.publishAsync(
        'pf/v1/d/EXT-OFF-01/log',
        JSON.stringify({
          v: 1,
          id: 'after-disable-1',
          fileName: 'x.txt',
          appName: 'A',
          occurredAt: 1,
          text: 'after disable',
        }),
        { qos: 1 },
      );
      await waitFor('both messages dropped', () => stats.dropped - dropped === 2);
      expect(await brightnessOf(server, 'EXT-OFF-01')).toBe(11);
      expect(
        await server.app.db.kysely
          .selectFrom('abnormal_logs')
          .select('id')
          .where('device_key', '=', 'EXT-OFF-01')
          .execute(),
      ).toEqual([]);

      await editState(server, operator, 'EXT-OFF-01', '1');
      await panel.client.publishAsync('pf/v1/d/EXT-OFF-01/state', JSON.stringify({ v: 1, brightness: 33 }), {
        qos: 1,
      });
      await waitFor(
        'stored again once enabled',
        async () => (await brightnessOf(server, 'EXT-OFF-01')) === 33,
      );
      await panel.close();
    });
  },
);
