import net from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';
import { backends, startServer, type TestServer } from './harness.js';

/** An MQTT 5 CONNECT (protocol level 5, clean start, keepalive 30) with connect properties and client id `abcd`. */
const v5Connect = (() => {
  const properties = Buffer.from([0x11, 0, 0, 0, 60, 0x21, 0, 10]); // session expiry 60 s, receive maximum 10
  const body = Buffer.concat([
    Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 5, 0x02, 0, 30, properties.length]),
    properties,
    Buffer.from([0, 4, 0x61, 0x62, 0x63, 0x64]),
  ]);
  return Buffer.concat([Buffer.from([0x10, body.length]), body]);
})();
/** MQTT 3.1.1 CONNACK, return code 1: unacceptable protocol level. */
const REFUSED_LEVEL = '20020001';

describe.each(backends)('MQTT 5 at the embedded broker on %s (the protocol is MQTT 3.1.1)', (backend) => {
  let server: TestServer;
  let password: string;
  beforeAll(async () => {
    server = await startServer(backend);
    password = (await enroll(server.url, 'V5-0001', await enrollmentSecretOf(await operatorClient(server))))
      .password;
  });
  afterAll(() => server.stop());

  it('answers an MQTT 5 CONNECT over TCP with CONNACK "unacceptable protocol level" and closes', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(server.app.devices.mqttPort!, '127.0.0.1', () => socket.write(v5Connect));
      let got = Buffer.alloc(0);
      socket.on('data', (d: Buffer) => (got = Buffer.concat([got, d])));
      socket.once('close', () => resolve(got.toString('hex')));
    });
    expect(answer).toBe(REFUSED_LEVEL);
  });

  it('answers it the same over WebSocket', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/mqtt`, 'mqtt');
      let got = Buffer.alloc(0);
      ws.once('open', () => ws.send(v5Connect));
      ws.on('message', (d: Buffer) => (got = Buffer.concat([got, d])));
      ws.once('close', () => resolve(got.toString('hex')));
      ws.once('error', reject);
    });
    expect(answer).toBe(REFUSED_LEVEL);
  });

  it('refuses an mqtt.js client speaking MQTT 5 at once, and takes the same panel over 3.1.1', async () => {
    const login = { clientId: 'V5-0001', username: 'V5-0001', password, reconnectPeriod: 0 };
    const v5 = mqtt.connectAsync(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, {
      ...login,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: 60 },
    });
    await expect(v5).rejects.toThrow(/Unacceptable protocol version/);
    const v311 = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, {
      ...login,
      protocolVersion: 4,
    });
    expect(v311.connected).toBe(true);
    await v311.endAsync();
  });
});
