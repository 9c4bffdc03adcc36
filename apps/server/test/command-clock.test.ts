import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../../simulator/src/fleet.js';
import { connectBare, enroll, enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';

const TWENTY_MINUTES = 20 * 60_000;

describe.each(backends)('command expiry that does not depend on the panel clock, on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;
  let fleet: Fleet | undefined;
  const commandRow = (id: string) =>
    server.app.db.kysely
      .selectFrom('commands')
      .select(['status', 'detail', 'expires_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  const deviceId = async (key: string) =>
    (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', key)
        .executeTakeFirstOrThrow()
    ).id;
  const send = async (key: string, order: string, value: string) =>
    device.sendCommandByDeviceId.reply.parse(
      (
        await operator.post('/sendData/sendCommandByDeviceId', {
          deviceId: String(await deviceId(key)),
          order,
          value,
        })
      ).body,
    ).dataObject.commandId;

  beforeAll(async () => {
    server = await startServer(backend, {}, { commandTimings: { retryMs: 1000, tickMs: 100 } });
    operator = await operatorClient(server);
  });
  afterAll(async () => {
    await fleet?.stop();
    await server.stop();
  });

  it('runs a command on a simulated panel whose clock is 20 minutes fast', async () => {
    fleet = await startFleet({
      url: server.url,
      mqttUrl: `mqtt://127.0.0.1:${server.app.devices.mqttPort}`,
      enrollmentSecret: await enrollmentSecretOf(operator),
      count: 1,
      prefix: 'FAST',
      telemetryMs: 60_000,
      abnormalLogChance: 0,
      clockOffsetMs: TWENTY_MINUTES,
      log: () => undefined,
    });
    const panel = fleet.panels[0]!;
    await waitFor('the panel ready', () => server.app.devices.gateway.isReady(panel.serial));
    const id = await send(panel.serial, '00', '37');
    const row = await waitFor('a final result', async () => {
      const r = await commandRow(id);
      return r && ['succeeded', 'failed', 'expired'].includes(r.status) ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'succeeded' });
    expect(panel.state.brightness).toBe(37);
    // The panel's clock really is past the command's absolute expiry.
    expect(panel.now()).toBeGreaterThan(row.expires_at);
  });

  it('gives every publish the time left, measured by the server clock', async () => {
    const creds = await enroll(server.url, 'TTL-0001', await enrollmentSecretOf(operator));
    const panel = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, creds, {
      autoAck: false,
    });
    await waitFor('the panel ready', () => server.app.devices.gateway.isReady('TTL-0001'));
    const id = await send('TTL-0001', '01', '12');
    const first = await waitFor('the command', () => panel.commands.find((c) => c.id === id));
    expect(first.ttlMs).toBe(first.expiresAt - server.clock.now());
    expect(first.ttlMs).toBe(10 * 60_000);
    // Four minutes later (server time) the unacknowledged command goes out again with six minutes left.
    const copies = panel.commands.length;
    server.clock.advance(4 * 60_000);
    const again = await waitFor('the command again', () =>
      panel.commands.slice(copies).find((c) => c.id === id),
    );
    expect(again.expiresAt).toBe(first.expiresAt);
    expect(again.ttlMs).toBe(6 * 60_000);
    await panel.close();
  });
});
