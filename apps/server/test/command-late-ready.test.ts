import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBare, enroll, enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';

// A panel's "ready" is handled once its row is looked up. With a slow database the lookup can
// answer after the panel has gone again; the commands queued meanwhile must still reach it when it
// really comes back, not sit claimed for a panel that was not there. (Seen in two-instances.test.ts
// under load; the test clock does not move, so a wrong claim would never lapse here.)
const HOUR = 3_600_000;

describe.each(backends)('a late ready for a panel that has gone again, on %s', (backend) => {
  let server: TestServer;
  let operator: TestClient;

  beforeAll(async () => {
    // No retries and no ticks: only the panel's return can deliver the commands.
    server = await startServer(backend, {}, { commandTimings: { retryMs: HOUR, tickMs: HOUR } });
    operator = await operatorClient(server);
  });
  afterAll(() => server.stop());

  it('claims nothing for it, and the panel gets every queued command when it comes back', async () => {
    const mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
    const credentials = await enroll(server.url, 'LATE-0001', await enrollmentSecretOf(operator));
    const gateway = server.app.devices.gateway;
    const first = await connectBare(mqttUrl, credentials);
    await waitFor('the panel ready', () => gateway.isReady(credentials.deviceKey));
    await first.close();
    await waitFor('the panel gone', () => !gateway.isOnline(credentials.deviceKey));

    const row = await server.app.db.kysely
      .selectFrom('devices')
      .select(['id', 'org_id'])
      .where('device_key', '=', credentials.deviceKey)
      .executeTakeFirstOrThrow();
    const sent: string[] = [];
    for (const value of ['10', '20']) {
      const reply = await operator.post('/sendData/sendCommandByDeviceId', {
        deviceId: String(row.id),
        order: '00',
        value,
      });
      sent.push(device.sendCommandByDeviceId.reply.parse(reply.body).dataObject.commandId);
    }

    // The lookup of the first connection answers only now.
    const commands = server.app.devices.commands;
    commands.deviceReady({ id: row.id, orgId: row.org_id, deviceKey: credentials.deviceKey });
    // Ready panels are handled in batches 20 ms apart: let this one's batch start, then end.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await commands.settle();
    const rows = await server.app.db.kysely
      .selectFrom('commands')
      .select(['created_at', 'updated_at'])
      .where('id', 'in', sent)
      .execute();
    expect(rows.map((r) => r.updated_at - r.created_at)).toEqual([0, 0]);

    const panel = await connectBare(mqttUrl, credentials);
    await waitFor('both commands', () => panel.commands.length === 2);
    expect(panel.commands.map((c) => c.id).sort()).toEqual([...sent].sort());
    await panel.close();
  });
});
