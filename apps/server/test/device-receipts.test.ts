import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestClient, type TestServer } from './harness.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';

// docs/device-protocol.md 5.9: what a panel sends that must not be lost is confirmed once stored,
// one receipt per panel per write batch; a panel that does not subscribe gets none.

const usage = (id: string): device.AppUsageReport => ({
  v: 1,
  id,
  from: 1_763_700_000_000,
  to: 1_763_700_600_000,
  screenOnMs: 600_000,
  records: [
    {
      packageName: 'com.panel.whiteboard',
      appName: 'Whiteboard',
      startedAt: 1_763_700_000_000,
      durationMs: 1000,
    },
  ],
});
const log = (id: string): device.AbnormalLog => ({
  v: 1,
  id,
  fileName: `${id}.txt`,
  appName: 'Browser',
  occurredAt: 1_763_700_000_000,
  text: 'ANR in com.panel.browser',
});

describe.each(backends)('receipts of stored reports on %s', (backend) => {
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

  /** A panel that subscribes to its receipts (or not) and collects what arrives there. */
  const connect = async (serial: string, receipts: boolean) => {
    const panel = await connectBare(mqttUrl, await enroll(server.url, serial, secret), { autoAck: false });
    panels.push(panel);
    const received: device.Receipt[] = [];
    const other: string[] = [];
    panel.client.on('message', (topic, payload) => {
      if (topic === device.receiptTopic(serial))
        received.push(device.receipt.parse(JSON.parse(payload.toString())));
      else if (topic !== device.commandTopic(serial)) other.push(topic);
    });
    if (receipts) {
      const [granted] = await panel.client.subscribeAsync(device.receiptTopic(serial), { qos: 0 });
      expect(granted?.qos).toBe(0);
    }
    const named = (list: device.ReceiptList) => received.flatMap((r) => r[list] ?? []);
    return { panel, received, other, named };
  };
  const publish = (panel: BareDevice, kind: device.DevicePublishKind, payload: object) =>
    panel.client.publishAsync(`pf/v1/d/${panel.key}/${kind}`, JSON.stringify(payload), { qos: 1 });
  const deviceIdOf = async (key: string) =>
    (
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', key)
        .executeTakeFirstOrThrow()
    ).id;
  const command = async (key: string) =>
    device.sendCommandByDeviceId.reply.parse(
      (
        await operator.post('/sendData/sendCommandByDeviceId', {
          deviceId: String(await deviceIdOf(key)),
          order: '00',
          value: '30',
        })
      ).body,
    ).dataObject.commandId;
  const commandRow = (id: string) =>
    server.app.db.kysely
      .selectFrom('commands')
      .select(['status', 'detail', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('names stored usage reports and logs once they are in the database', async () => {
    const { panel, named } = await connect('RCPT-USAGE', true);
    const usageIds = Array.from({ length: 20 }, (_, i) => `usage-${String(i).padStart(4, '0')}`);
    const logIds = ['log-00001', 'log-00002'];
    await Promise.all([
      ...usageIds.map((id) => publish(panel, 'usage', usage(id))),
      ...logIds.map((id) => publish(panel, 'log', log(id))),
    ]);
    await waitFor('every report named', () => named('usage').length === 20 && named('logs').length === 2);
    expect(named('usage').sort()).toEqual(usageIds);
    expect(named('logs').sort()).toEqual(logIds);
    const stored = await server.app.db.kysely
      .selectFrom('screen_time')
      .select('report_id')
      .where('device_id', '=', await deviceIdOf(panel.key))
      .execute();
    expect(stored.map((r) => r.report_id).sort()).toEqual(usageIds);
    // Sent again (a receipt was lost): stored once, confirmed again.
    await publish(panel, 'usage', usage(usageIds[0]!));
    await waitFor('the repeat confirmed', () => named('usage').length === 21);
    const again = await server.app.db.kysely
      .selectFrom('screen_time')
      .select('id')
      .where('report_id', '=', usageIds[0]!)
      .execute();
    expect(again).toHaveLength(1);
  });

  it('confirms a final acknowledgement after its write, a repeated one without changing anything, and never a received', async () => {
    const { panel, named } = await connect('RCPT-ACKS', true);
    const id = await command(panel.key);
    await waitFor('the command at the panel', () => panel.commands.some((c) => c.id === id));
    await publish(panel, 'ack', { v: 1, id, result: 'received' });
    await publish(panel, 'ack', { v: 1, id, result: 'failed', detail: 'unsupported' });
    await waitFor('the final result confirmed', () => named('acks').includes(id));
    const settled = await commandRow(id);
    expect(settled).toMatchObject({ status: 'failed', detail: 'unsupported' });
    expect(named('acks')).toEqual([id]);
    // The panel did not hear the receipt and sends its result again: nothing changes, it is confirmed again.
    server.clock.advance(1000);
    await publish(panel, 'ack', { v: 1, id, result: 'failed', detail: 'unsupported' });
    await waitFor('the repeat confirmed', () => named('acks').length === 2);
    expect(await commandRow(id)).toEqual(settled);
    // A result for a command the panel does not have changes nothing either; it is as stored as it gets.
    const unknown = '018f6b2e-4c1a-7d2b-9a51-3f2c8e1d0aff';
    await publish(panel, 'ack', { v: 1, id: unknown, result: 'succeeded' });
    await waitFor('the unknown result confirmed', () => named('acks').includes(unknown));
  });

  it('names the final results of one write batch in one receipt', async () => {
    const { panel, received, named } = await connect('RCPT-BATCH', true);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await command(panel.key));
    await waitFor('the commands at the panel', () =>
      ids.every((id) => panel.commands.some((c) => c.id === id)),
    );
    // Acknowledged at once: the server writes acknowledgements every 50 ms, so they share a batch.
    await Promise.all(ids.map((id) => publish(panel, 'ack', { v: 1, id, result: 'succeeded' })));
    await waitFor('every result confirmed', () => named('acks').length === 5);
    expect(named('acks').sort()).toEqual([...ids].sort());
    // One batch, or two when the five straddle a batch's start on a busy machine; never one per result.
    expect(received.length).toBeLessThanOrEqual(2);
  });

  it('sends a panel that did not subscribe to receipts none, and it works as before', async () => {
    const { panel, received, other } = await connect('RCPT-OLD', false);
    const { panel: listener, named } = await connect('RCPT-NEW', true);
    await publish(panel, 'usage', usage('old-usage-1'));
    await publish(listener, 'usage', usage('new-usage-1'));
    const id = await command(panel.key);
    await waitFor('the command at the old panel', () => panel.commands.some((c) => c.id === id));
    await publish(panel, 'ack', { v: 1, id, result: 'succeeded' });
    await waitFor("the old panel's result stored", async () => (await commandRow(id)).status === 'succeeded');
    // Written after the old panel's reports: had it been sent one, it would have come before this.
    await waitFor('the new panel confirmed', () => named('usage').includes('new-usage-1'));
    await server.app.devices.commands.settle();
    const storedOld = await server.app.db.kysely
      .selectFrom('screen_time')
      .select('report_id')
      .where('report_id', '=', 'old-usage-1')
      .execute();
    expect(storedOld).toHaveLength(1);
    expect(received).toEqual([]);
    expect(other).toEqual([]);
  });
});
