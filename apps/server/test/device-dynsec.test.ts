import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { device } from '@panelfleet/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, joinServer, startServer, type TestClient, type TestServer } from './harness.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
} from './device-helpers.js';
import { hasDynsec, startDynsecMosquitto } from './mosquitto-helpers.js';

const available = hasDynsec;
if (!available)
  console.warn(
    'SKIPPED: Mosquitto with its dynamic-security plugin (Debian package mosquitto) is not installed',
  );

describe.runIf(available).each(backends)(
  'per-panel credentials provisioned into Mosquitto dynamic-security on %s',
  (backend) => {
    const serverPassword = 'server-secret-0123456789';
    let broker: { child: ChildProcess; port: number; dir: string };
    let server: TestServer;
    let operator: TestClient;
    let brokerUrl: string;

    beforeAll(async () => {
      broker = await startDynsecMosquitto(serverPassword);
      brokerUrl = `mqtt://127.0.0.1:${broker.port}`;
      server = await startServer(backend, {
        MQTT_URL: `mqtt://panelfleet-server:${serverPassword}@127.0.0.1:${broker.port}`,
        MQTT_PROVISION: 'dynsec',
      });
      operator = await operatorClient(server);
    });
    afterAll(async () => {
      await server?.stop();
      broker?.child.kill('SIGTERM');
      if (broker) fs.rmSync(broker.dir, { recursive: true, force: true });
    });

    const refused = (options: mqtt.IClientOptions) =>
      mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0, connectTimeout: 5000, ...options }).then(
        async (client) => (await client.endAsync(), 'accepted'),
        (err: Error) => err.message,
      );

    it('lets an enrolled panel in with its own credentials and client id only, on its own topics only', async () => {
      const secret = await enrollmentSecretOf(operator);
      const victimCreds = await enroll(server.url, 'DYN-VICTIM', secret);
      const thiefCreds = await enroll(server.url, 'DYN-THIEF', secret);
      expect(await refused({ clientId: 'anonymous-1' })).toMatch(/not authori[sz]ed|Bad username/i);
      expect(await refused({ clientId: 'DYN-VICTIM', username: 'DYN-VICTIM', password: 'wrong' })).toMatch(
        /not authori[sz]ed|Bad username/i,
      );
      expect(
        await refused({ clientId: 'DYN-VICTIM', username: 'DYN-THIEF', password: thiefCreds.password }),
      ).toMatch(/not authori[sz]ed|Identifier|Bad username/i);

      const victim = await connectBare(brokerUrl, victimCreds);
      // Its own receipts too (protocol 5.9): the role dynsec was given names that topic.
      const receipts: device.Receipt[] = [];
      victim.client.on('message', (topic, payload) => {
        if (topic === device.receiptTopic('DYN-VICTIM'))
          receipts.push(device.receipt.parse(JSON.parse(payload.toString())));
      });
      const [ownReceipts] = await victim.client.subscribeAsync(device.receiptTopic('DYN-VICTIM'), { qos: 0 });
      expect(ownReceipts?.qos).toBe(0);
      await victim.client.publishAsync(
        'pf/v1/d/DYN-VICTIM/state',
        JSON.stringify(fullState({ brightness: 21 })),
        { qos: 1 },
      );
      const row = await waitFor('the victim online with its state', async () => {
        const list = device.listDevices.reply.parse(
          (await operator.get('/platform/device/list?start=1&size=10&deviceName=DYN-VICTIM')).body,
        );
        const r = list.listObject.find((d) => d.deviceKey === 'DYN-VICTIM');
        return r?.isOnline === '1' && r.brightness === 21 ? r : undefined;
      });

      const thief = await connectBare(brokerUrl, thiefCreds);
      const granted = await thief.client
        .subscribeAsync(['#', 'pf/v1/d/DYN-VICTIM/cmd', 'pf/v1/d/DYN-VICTIM/receipt'], { qos: 1 })
        .then(
          (grants) => grants.map((g) => g.qos),
          (err: { packet?: { granted?: number[] } }) => err.packet?.granted,
        );
      expect(granted).toEqual([128, 128, 128]);
      await thief.client.publishAsync('pf/v1/d/DYN-VICTIM/state', JSON.stringify({ v: 1, brightness: 99 }), {
        qos: 1,
      });

      const sent = device.sendCommandByDeviceId.reply.parse(
        (
          await operator.post('/sendData/sendCommandByDeviceId', {
            deviceId: String(row.deviceId),
            order: '01',
            value: '33',
          })
        ).body,
      );
      await waitFor('the command at the victim', () =>
        victim.commands.some((c) => c.id === sent.dataObject.commandId),
      );
      await waitFor(
        'its acknowledgement',
        async () =>
          (
            await server.app.db.kysely
              .selectFrom('commands')
              .select('status')
              .where('id', '=', sent.dataObject.commandId)
              .executeTakeFirst()
          )?.status === 'succeeded',
      );
      await waitFor('the receipt of its acknowledgement', () =>
        receipts.some((r) => r.acks?.includes(sent.dataObject.commandId)),
      );
      expect(thief.commands).toEqual([]);
      await server.app.devices.gateway.flushState();
      const after = await server.app.db.kysely
        .selectFrom('devices')
        .select('brightness')
        .where('device_key', '=', 'DYN-VICTIM')
        .executeTakeFirstOrThrow();
      expect(after.brightness).toBe(21);
      expect(victim.client.connected).toBe(true);
      await Promise.all([victim.close(), thief.close()]);
    });

    it('re-enrollment replaces the password in the broker', async () => {
      const secret = await enrollmentSecretOf(operator);
      const first = await enroll(server.url, 'DYN-RESET', secret);
      const second = await enroll(server.url, 'DYN-RESET', secret);
      expect(
        await refused({ clientId: 'DYN-RESET', username: 'DYN-RESET', password: first.password }),
      ).toMatch(/not authori[sz]ed|Bad username/i);
      expect(await refused({ clientId: 'DYN-RESET', username: 'DYN-RESET', password: second.password })).toBe(
        'accepted',
      );
    });

    it('a panel disabled in the console cannot connect to the broker until it is enabled again', async () => {
      const creds = await enroll(server.url, 'DYN-OFF', await enrollmentSecretOf(operator));
      const row = await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'DYN-OFF')
        .executeTakeFirstOrThrow();
      const edit = (state: '0' | '1') =>
        operator.post('/platform/device/update', {
          deviceId: String(row.id),
          deviceName: 'DYN-OFF',
          deviceKey: 'DYN-OFF',
          tag: 'broker test',
          state,
        });
      const login = { clientId: 'DYN-OFF', username: 'DYN-OFF', password: creds.password };
      expect((await edit('0')).body).toMatchObject({ hhtStatus: 'success' });
      await waitFor('the broker to refuse the disabled panel', async () =>
        /not authori[sz]ed|Bad username/i.test(await refused(login)),
      );
      expect((await edit('1')).body).toMatchObject({ hhtStatus: 'success' });
      await waitFor('the broker to take the panel again', async () => (await refused(login)) === 'accepted');
    });

    it('ends the broker connection of a panel that is disabled, re-enrolled or deleted', async () => {
      const secret = await enrollmentSecretOf(operator);
      const connectedPanel = async (serial: string) => {
        const panel = await connectBare(brokerUrl, await enroll(server.url, serial, secret));
        const flag = { closed: false };
        panel.client.on('close', () => (flag.closed = true));
        return flag;
      };
      const disabled = await connectedPanel('DYN-KICK-1');
      const row = await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'DYN-KICK-1')
        .executeTakeFirstOrThrow();
      const edit = await operator.post('/platform/device/update', {
        deviceId: String(row.id),
        deviceName: 'DYN-KICK-1',
        deviceKey: 'DYN-KICK-1',
        tag: 'broker test',
        state: '0',
      });
      expect(edit.body).toMatchObject({ hhtStatus: 'success' });
      await waitFor('the disabled panel disconnected by the broker', () => disabled.closed);

      const reEnrolled = await connectedPanel('DYN-KICK-2');
      await enroll(server.url, 'DYN-KICK-2', secret);
      await waitFor('the old connection of the re-enrolled panel closed', () => reEnrolled.closed);

      const deleted = await connectedPanel('DYN-KICK-3');
      await server.app.db.kysely.deleteFrom('devices').where('device_key', '=', 'DYN-KICK-3').execute();
      server.app.devices.access.removed('DYN-KICK-3');
      await waitFor('the deleted panel disconnected by the broker', () => deleted.closed);
    });

    it('enrollments made at once are each answered after their own provisioning', async () => {
      const secret = await enrollmentSecretOf(operator);
      const serials = Array.from({ length: 12 }, (_, i) => `DYN-BURST-${i}`);
      const enrolled = await Promise.all(serials.map((serial) => enroll(server.url, serial, secret)));
      // Each reply came after the broker took that panel's password: the panel gets in at once.
      for (const creds of enrolled)
        expect(
          await refused({ clientId: creds.deviceKey, username: creds.deviceKey, password: creds.password }),
        ).toBe('accepted');
    });

    // Last: it stops the broker.
    it('an enrollment while the broker is away is answered 503 serviceUnavailable, and works once it is back', async () => {
      const secret = await enrollmentSecretOf(operator);
      const stopped = new Promise((resolve) => broker.child.once('exit', resolve));
      broker.child.kill('SIGTERM');
      await stopped;
      const brokerUp = async () =>
        (await (await fetch(`${server.url}/healthz`)).text()).includes('broker: ok');
      await waitFor('the server to notice', async () => !(await brokerUp()));
      const response = await fetch(`${server.url}/device/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': 'en-US' },
        body: JSON.stringify({ v: 1, serial: 'DYN-AWAY', enrollmentSecret: secret }),
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: 'The service is briefly unavailable; please try again in a moment',
      });

      broker.child = spawn('/usr/sbin/mosquitto', ['-c', path.join(broker.dir, 'mosquitto.conf')], {
        stdio: 'ignore',
      });
      await waitFor('the server back on the broker', brokerUp);
      const creds = await enroll(server.url, 'DYN-AWAY', secret);
      expect(await refused({ clientId: 'DYN-AWAY', username: 'DYN-AWAY', password: creds.password })).toBe(
        'accepted',
      );
    });
  },
);

describe.runIf(available && backends.includes('postgres'))(
  'dynamic-security provisioning with two instances on one PostgreSQL database',
  () => {
    const serverPassword = 'server-secret-0123456789';
    let broker: { child: ChildProcess; port: number; dir: string };
    let a: TestServer;
    let b: TestServer;
    let operator: TestClient;

    beforeAll(async () => {
      broker = await startDynsecMosquitto(serverPassword);
      const env = {
        MQTT_URL: `mqtt://panelfleet-server:${serverPassword}@127.0.0.1:${broker.port}`,
        MQTT_PROVISION: 'dynsec',
      };
      a = await startServer('postgres', env);
      b = await joinServer(a, env);
      operator = await operatorClient(a);
    });
    afterAll(async () => {
      await b?.stop();
      await a?.stop();
      broker?.child.kill('SIGTERM');
      if (broker) fs.rmSync(broker.dir, { recursive: true, force: true });
    });

    const brokerLogin = (key: string, password: string) =>
      mqtt
        .connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
          clientId: key,
          username: key,
          password,
          reconnectPeriod: 0,
          connectTimeout: 5000,
        })
        .then(
          async (client) => (await client.endAsync(), 'accepted'),
          () => 'refused',
        );
    const httpLogin = async (server: TestServer, key: string, password: string) => {
      const response = await fetch(`${server.url}/device/files/nothing-here.bin`, {
        headers: { authorization: `Basic ${Buffer.from(`${key}:${password}`).toString('base64')}` },
      });
      await response.arrayBuffer();
      return response.status === 401 ? 'refused' : 'accepted';
    };

    it('a panel re-enrolled through A: the shared broker and B both take only the new password', async () => {
      const secret = await enrollmentSecretOf(operator);
      const first = await enroll(a.url, 'DYN-TWO', secret);
      expect(await httpLogin(b, 'DYN-TWO', first.password)).toBe('accepted');
      const second = await enroll(a.url, 'DYN-TWO', secret);
      // The broker's user database is shared: the change made once, by A, holds for every instance.
      expect(await brokerLogin('DYN-TWO', first.password)).toBe('refused');
      expect(await brokerLogin('DYN-TWO', second.password)).toBe('accepted');
      // B's own cache follows through the event bus.
      await waitFor(
        "B's HTTP calls to take only the new password",
        async () =>
          (await httpLogin(b, 'DYN-TWO', second.password)) === 'accepted' &&
          (await httpLogin(b, 'DYN-TWO', first.password)) === 'refused',
      );
    });
  },
);
