import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretHashOf } from '../src/gateway/device-directory.js';
import { EmbeddedBroker } from '../src/gateway/embedded-broker.js';
import { waitFor } from './device-helpers.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('presence on the embedded broker', () => {
  const presence: Array<[string, boolean]> = [];
  const broker = new EmbeddedBroker({
    tcpPort: 0,
    host: '127.0.0.1',
    webSocket: null,
    directory: { admitsSecret: (key, secret) => Promise.resolve(secret === secretHashOf(`pw-${key}`)) },
    log: silent,
  });
  beforeAll(() =>
    broker.start({
      message: () => undefined,
      presence: (key, online) => void presence.push([key, online]),
      ready: () => undefined,
      presenceLost: () => undefined,
    }),
  );
  afterAll(() => broker.close());

  const connect = (key: string) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      clientId: key,
      username: key,
      password: `pw-${key}`,
      reconnectPeriod: 0,
      will: {
        topic: `pf/v1/d/${key}/presence`,
        payload: Buffer.from('{"v":1,"online":false}'),
        qos: 1,
        retain: true,
      },
    });

  it('keeps no retained presence, neither published nor from a last will, and still tracks connections', async () => {
    const a = await connect('PRES-0001');
    await a.subscribeAsync('pf/v1/d/PRES-0001/cmd', { qos: 1 });
    await a.publishAsync('pf/v1/d/PRES-0001/presence', '{"v":1,"online":true}', { qos: 1, retain: true });
    const b = await connect('PRES-0002');
    // An unclean end fires PRES-0002's retained last will.
    b.stream.destroy();
    await waitFor('PRES-0002 offline', () => presence.some(([k, online]) => k === 'PRES-0002' && !online));
    expect(await broker.retainedTopics()).toEqual([]);
    expect(a.connected).toBe(true);
    expect(presence).toContainEqual(['PRES-0001', true]);
    await a.endAsync();
  });

  it('still refuses a retained message on any other topic by closing the connection', async () => {
    const c = await connect('PRES-0003');
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    c.publish('pf/v1/d/PRES-0003/state', '{"v":1,"brightness":5}', { qos: 1, retain: true });
    await closed;
    expect(await broker.retainedTopics()).toEqual([]);
  });

  it('lets a second connection with the same serial take over: the first is closed, the panel stays online', async () => {
    const key = 'PRES-0004';
    const first = await connect(key);
    await waitFor('first online', () => presence.some(([k, online]) => k === key && online));
    const firstClosed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    const second = await connect(key);
    await firstClosed;
    expect(second.connected).toBe(true);
    // The server hears the first connection end, then the second one arrive: online again at once.
    const events = presence.filter(([k]) => k === key).map(([, online]) => online);
    expect(events).toEqual([true, false, true]);
    // A wrong password never takes over: the connected panel stays.
    await expect(
      mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
        clientId: key,
        username: key,
        password: 'not-its-password',
        reconnectPeriod: 0,
      }),
    ).rejects.toThrow();
    expect(second.connected).toBe(true);
    await second.endAsync();
    await waitFor('offline after the second leaves', () => presence.filter(([k]) => k === key).length === 4);
    expect(presence.filter(([k]) => k === key).at(-1)).toEqual([key, false]);
  });
});
