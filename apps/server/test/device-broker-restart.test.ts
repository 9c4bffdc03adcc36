import { device } from '@panelfleet/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { connectBare, enroll, enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';

const commandRow = (server: TestServer, id: string) =>
  server.app.db.kysely
    .selectFrom('commands')
    .select(['status', 'attempts'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

async function sendTo(server: TestServer, operator: TestClient, key: string, order: string, value: string) {
  const row = await server.app.db.kysely
    .selectFrom('devices')
    .select('id')
    .where('device_key', '=', key)
    .executeTakeFirstOrThrow();
  const reply = await operator.post('/sendData/sendCommandByDeviceId', {
    deviceId: String(row.id),
    order,
    value,
  });
  return device.sendCommandByDeviceId.reply.parse(reply.body).dataObject.commandId;
}

describe.runIf(hasMosquitto).each(backends)(
  'presence after a restart of an external broker that keeps nothing, on %s',
  (backend) => {
    let broker: ThrowawayMosquitto;
    let server: TestServer;
    let operator: TestClient;
    let fleet: Fleet | undefined;
    beforeAll(async () => {
      broker = await ThrowawayMosquitto.start();
      server = await startServer(backend, { MQTT_URL: broker.url });
      operator = await operatorClient(server);
    });
    afterAll(async () => {
      await fleet?.stop();
      await server?.stop();
      await broker?.dispose();
    });

    it('forgets panels that never come back, learns those that do, and sends nothing to the gone ones', async () => {
      const gateway = server.app.devices.gateway;
      const secret = await enrollmentSecretOf(operator);
      // A panel that never comes back (no reconnect) and a simulated one that reconnects and announces itself.
      const gone = await connectBare(broker.url, await enroll(server.url, 'GONE-0001', secret));
      gone.client.on('error', () => undefined);
      fleet = await startFleet({
        url: server.url,
        mqttUrl: broker.url,
        enrollmentSecret: secret,
        count: 1,
        prefix: 'BACK',
        telemetryMs: 60_000,
        abnormalLogChance: 0,
        log: () => undefined,
      });
      const back = fleet.panels[0]!.serial;
      await waitFor('both online', () => gateway.isReady('GONE-0001') && gateway.isReady(back));

      // A crash: no last will reaches anyone, the broker comes back empty.
      await broker.restart('crash');
      await waitFor(
        'the panel that came back online again',
        () => gateway.isReady(back) && fleet!.panels[0]!.connected,
      );
      await waitFor('the gone panel offline', () => !gateway.isOnline('GONE-0001'));
      expect(gateway.isReady('GONE-0001')).toBe(false);

      // A command to the gone panel waits, queued, instead of being published every 15 s.
      const queued = await sendTo(server, operator, 'GONE-0001', '00', '10');
      expect(await commandRow(server, queued)).toEqual({ status: 'queued', attempts: 0 });
      // The one that came back takes commands.
      const sent = await sendTo(server, operator, back, '00', '44');
      await waitFor(
        'its command to succeed',
        async () => (await commandRow(server, sent)).status === 'succeeded',
      );
      await gone.client.endAsync(true);
    });
  },
);

describe.runIf(hasMosquitto)('shutting down behind an external broker that restarted or is gone', () => {
  let broker: ThrowawayMosquitto;
  beforeEach(async () => {
    broker = await ThrowawayMosquitto.start();
  });
  afterEach(async () => {
    await broker.dispose();
  });

  /** Closes the server; fails the test if close() never settles. */
  async function closesInBoundedTime(s: TestServer) {
    let settled = false;
    void s.stop().finally(() => (settled = true));
    await waitFor('close() to settle', () => settled, 25_000);
  }

  const serverWithPanel = async () => {
    const s = await startServer('sqlite', { MQTT_URL: broker.url });
    const operator = await operatorClient(s);
    const panel = await connectBare(
      broker.url,
      await enroll(s.url, 'STOP-0001', await enrollmentSecretOf(operator)),
      { autoAck: false },
    );
    panel.client.on('error', () => undefined);
    await waitFor('the panel ready', () => s.app.devices.gateway.isReady('STOP-0001'));
    return { s, operator, panel };
  };

  it('close() settles after a broker restart with a publish under way', async () => {
    const { s, operator, panel } = await serverWithPanel();
    await broker.stop('crash');
    // Published while the broker is down: nothing will ever answer it.
    await sendTo(s, operator, 'STOP-0001', '00', '20');
    await broker.restart('crash');
    await closesInBoundedTime(s);
    await panel.client.endAsync(true);
  });

  it('close() settles while the broker is down', async () => {
    const { s, operator, panel } = await serverWithPanel();
    await broker.stop('crash');
    await sendTo(s, operator, 'STOP-0001', '00', '21');
    await closesInBoundedTime(s);
    await panel.client.endAsync(true);
  });
});
