import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
} from './device-helpers.js';

const run = promisify(execFile);
const hasMosquittoClients =
  fs.existsSync('/usr/bin/mosquitto_pub') && fs.existsSync('/usr/bin/mosquitto_sub');
if (!hasMosquittoClients)
  console.warn('SKIPPED: mosquitto_pub/mosquitto_sub not installed (apt-get install mosquitto-clients)');

async function mosquittoAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: 1883 });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}
const externalBroker = await mosquittoAnswers();
if (!externalBroker)
  console.warn('SKIPPED: no MQTT broker answers on 127.0.0.1:1883 for the external-broker test');

async function commandStatus(server: TestServer, id: string) {
  return (
    await server.app.db.kysely.selectFrom('commands').select('status').where('id', '=', id).executeTakeFirst()
  )?.status;
}

async function deviceIdOf(operator: TestClient, key: string) {
  const list = device.listDevices.reply.parse(
    (await operator.get(`/platform/device/list?start=1&size=10&deviceName=${key}`)).body,
  );
  return list.listObject.find((d) => d.deviceKey === key);
}

describe.each(backends)('Debian mosquitto clients against the embedded broker on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
  });
  afterAll(() => server.stop());

  it.skipIf(!hasMosquittoClients)(
    'reports state with mosquitto_pub and receives and acknowledges a command with mosquitto_sub',
    async () => {
      const creds = await enroll(server.url, 'MOSQ-0001', await enrollmentSecretOf(operator));
      const auth = [
        '-h',
        '127.0.0.1',
        '-p',
        String(server.app.devices.mqttPort),
        '-i',
        creds.clientId,
        '-u',
        creds.username,
        '-P',
        creds.password,
        '-V',
        'mqttv311',
      ];
      await run('mosquitto_pub', [
        ...auth,
        '-q',
        '1',
        '-t',
        'pf/v1/d/MOSQ-0001/state',
        '-m',
        JSON.stringify(fullState({ volume: 33 })),
      ]);
      const row = await waitFor('the state report', async () => {
        const r = await deviceIdOf(operator, 'MOSQ-0001');
        return r?.volume === 33 ? r : undefined;
      });

      const sent = device.sendCommandByDeviceId.reply.parse(
        (
          await operator.post('/sendData/sendCommandByDeviceId', {
            deviceId: String(row.deviceId),
            order: '04',
            value: 'hdmi1',
          })
        ).body,
      );
      const sub = spawn('mosquitto_sub', [
        ...auth,
        '-q',
        '1',
        '-t',
        'pf/v1/d/MOSQ-0001/cmd',
        '-C',
        '1',
        '-W',
        '20',
      ]);
      let output = '';
      sub.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exitCode = await new Promise<number | null>((resolve) => sub.once('close', resolve));
      expect(exitCode).toBe(0);
      const command = device.commandEnvelope.parse(JSON.parse(output.trim()));
      expect(command).toMatchObject({ id: sent.dataObject.commandId, order: '04', value: 'hdmi1' });

      await run('mosquitto_pub', [
        ...auth,
        '-q',
        '1',
        '-t',
        'pf/v1/d/MOSQ-0001/ack',
        '-m',
        JSON.stringify({ v: 1, id: command.id, result: 'succeeded' }),
      ]);
      await waitFor(
        'the acknowledgement',
        async () => (await commandStatus(server, command.id)) === 'succeeded',
      );
    },
  );
});

describe.runIf(externalBroker).each(backends)(
  'command path through the external Mosquitto (MQTT_URL) on %s',
  (backend) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(backend, { MQTT_URL: 'mqtt://127.0.0.1:1883' });
    });
    afterAll(() => server.stop());

    it('sees presence, delivers a command and records the acknowledgement', async () => {
      const operator = await operatorClient(server);
      const serial = `EXT-${crypto.randomBytes(4).toString('hex')}`;
      const creds = await enroll(server.url, serial, await enrollmentSecretOf(operator));
      expect(server.app.devices.mqttPort).toBeUndefined();
      const panel = await connectBare('mqtt://127.0.0.1:1883', creds);
      await panel.client.publishAsync(
        `pf/v1/d/${serial}/state`,
        JSON.stringify(fullState({ brightness: 12 })),
        { qos: 1 },
      );
      const row = await waitFor('presence and state via Mosquitto', async () => {
        const r = await deviceIdOf(operator, serial);
        return r?.isOnline === '1' && r.brightness === 12 ? r : undefined;
      });
      const sent = device.sendCommandByDeviceId.reply.parse(
        (
          await operator.post('/sendData/sendCommandByDeviceId', {
            deviceId: String(row.deviceId),
            order: '00',
            value: '55',
          })
        ).body,
      );
      await waitFor('the command at the panel', () =>
        panel.commands.some((c) => c.id === sent.dataObject.commandId),
      );
      await waitFor(
        'the acknowledgement',
        async () => (await commandStatus(server, sent.dataObject.commandId)) === 'succeeded',
      );
      await panel.client.publishAsync(`pf/v1/d/${serial}/presence`, '', { qos: 1, retain: true });
      await panel.close();
    });
  },
);
