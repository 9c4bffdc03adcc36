import { device, deviceDetail } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  fullState,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';

// Issue 23, item 5: a panel whose clock jumps back (an NTP correction, a reset clock) must not have
// its later reports dropped; the console shows how far its clock is off.

const MINUTE = 60_000;

describe.each(backends)('reports of a panel whose clock is wrong on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let secret: string;
  let mqttUrl: string;
  const panels: BareDevice[] = [];

  beforeAll(async () => {
    server = await startServer(backend);
    operator = await operatorClient(server);
    secret = await enrollmentSecretOf(operator);
    mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
  });
  afterAll(async () => {
    await Promise.all(panels.map((p) => p.close()));
    await server.stop();
  });

  const gateway = () => server.app.devices.gateway;
  const connect = async (serial: string) => {
    const panel = await connectBare(mqttUrl, await enroll(server.url, serial, secret), { autoAck: false });
    panels.push(panel);
    return panel;
  };
  /** Publishes one message and waits until the server has written it. */
  const send = async (panel: BareDevice, kind: 'state' | 'ack', payload: object) => {
    const before = gateway().stats.received;
    await panel.client.publishAsync(`pf/v1/d/${panel.key}/${kind}`, JSON.stringify(payload), { qos: 1 });
    await waitFor(`the ${kind} received`, () => gateway().stats.received > before);
    await server.app.devices.commands.settle();
    await gateway().flushState();
  };
  const row = (key: string) =>
    server.app.db.kysely
      .selectFrom('devices')
      .select(['id', 'brightness', 'volume', 'ota_current', 'ota_total', 'cpu_temperature'])
      .where('device_key', '=', key)
      .executeTakeFirstOrThrow();
  const detailOf = async (id: number) =>
    deviceDetail.selectByDeviceId.reply.parse(
      (await operator.get(`/platform/device/selectByDeviceId?deviceId=${id}`)).body,
    ).dataObject;

  it('keeps every report after the clock jumps back ten minutes: brightness, volume and OTA progress move on', async () => {
    const panel = await connect('SKEW-JUMP');
    const t0 = server.clock.now();
    await send(panel, 'state', {
      ...fullState({ brightness: 10, volume: 10 }),
      otaCurrent: 1,
      otaTotal: 100,
      ts: t0,
    });
    // A reset clock: from now on the panel's `ts` is ten minutes behind the server's.
    for (let step = 1; step <= 3; step++) {
      server.clock.advance(5_000);
      await send(panel, 'state', {
        v: 1,
        ts: server.clock.now() - 10 * MINUTE,
        brightness: 10 + step,
        volume: 20 + step,
        otaCurrent: 30 * step,
        otaTotal: 100,
      });
      expect(await row(panel.key)).toMatchObject({
        brightness: 10 + step,
        volume: 20 + step,
        ota_current: 30 * step,
      });
    }
  });

  it('keeps a report made after an acknowledgement carried state, though the panel clock is 50 s behind', async () => {
    const panel = await connect('SKEW-BEHIND');
    await send(panel, 'state', { ...fullState({ brightness: 40 }), ts: server.clock.now() - 50_000 });
    const { id } = await row(panel.key);
    const sent = device.sendCommandByDeviceId.reply.parse(
      (
        await operator.post('/sendData/sendCommandByDeviceId', {
          deviceId: String(id),
          order: '00',
          value: '41',
        })
      ).body,
    ).dataObject.commandId;
    await waitFor('the command at the panel', () => panel.commands.some((c) => c.id === sent));
    await send(panel, 'ack', { v: 1, id: sent, result: 'succeeded', state: { brightness: 41 } });
    expect((await row(panel.key)).brightness).toBe(41);
    // Someone turns the brightness down on the panel itself, ten seconds later.
    server.clock.advance(10_000);
    await send(panel, 'state', { v: 1, ts: server.clock.now() - 50_000, brightness: 42 });
    expect((await row(panel.key)).brightness).toBe(42);
  });

  it("shows how far the panel's clock is off in the device detail", async () => {
    const wrong = await connect('SKEW-SHOWN');
    const right = await connect('SKEW-RIGHT');
    const { id: wrongId } = await row(wrong.key);
    const { id: rightId } = await row(right.key);
    expect(await detailOf(wrongId)).toMatchObject({ clockOffsetMs: null, clockCheckedAt: null });
    await send(wrong, 'state', { ...fullState(), ts: server.clock.now() - 10 * MINUTE });
    await send(right, 'state', { ...fullState(), ts: server.clock.now() + 1_500 });
    expect(await detailOf(wrongId)).toMatchObject({
      clockOffsetMs: -10 * MINUTE,
      clockCheckedAt: server.clock.now(),
    });
    expect(await detailOf(rightId)).toMatchObject({ clockOffsetMs: 1_500 });
    // A later report with a corrected clock replaces the offset.
    server.clock.advance(1_000);
    await send(wrong, 'state', { v: 1, ts: server.clock.now(), cpuTemperature: 50 });
    expect(await detailOf(wrongId)).toMatchObject({ clockOffsetMs: 0, clockCheckedAt: server.clock.now() });
  });
});
