import { device } from '@panelfleet/contract';
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { startServer, type TestClient, type TestServer } from './harness.js';
import { canRunThrowawayCluster, startThrowawayCluster, type ThrowawayCluster } from './pg-cluster.js';

const PANELS = 5;
const REPORT_EVERY_MS = 100;

/**
 * The server on a PostgreSQL cluster that this test owns, stopped and frozen under load: the
 * server stays up and answers 503 meanwhile, panels stay connected, it recovers by itself, and
 * no device report sent during the outage is lost.
 */
describe.runIf(canRunThrowawayCluster)('PostgreSQL stopped and frozen under load', () => {
  let cluster: ThrowawayCluster;
  let server: TestServer;
  let operator: TestClient;
  const panels: BareDevice[] = [];
  let sent = 0;
  let sending: NodeJS.Timeout | undefined;

  const usageRows = async () =>
    Number(
      (
        await server.app.db.kysely
          .selectFrom('app_usage')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const deviceList = () => operator.get('/platform/device/list?start=1&size=10');

  /** Every panel sends one usage report with one record each REPORT_EVERY_MS. */
  const startReports = () => {
    sending = setInterval(() => {
      for (const panel of panels) {
        const now = Date.now();
        const report: device.AppUsageReport = {
          v: 1,
          id: crypto.randomUUID(),
          from: now - 1000,
          to: now,
          screenOnMs: 1000,
          records: [
            {
              packageName: 'com.panel.whiteboard',
              appName: 'Whiteboard',
              startedAt: now - 1000,
              durationMs: 1000,
            },
          ],
        };
        sent++;
        panel.client.publish(`pf/v1/d/${panel.key}/usage`, JSON.stringify(report), { qos: 1 });
      }
    }, REPORT_EVERY_MS);
  };
  const stopReports = () => clearInterval(sending);

  beforeAll(async () => {
    cluster = await startThrowawayCluster();
    server = await startServer('sqlite', {
      DATABASE_URL: cluster.url,
      DB_QUERY_TIMEOUT_MS: '1500',
      DB_CONNECT_TIMEOUT_MS: '1000',
    });
    operator = await operatorClient(server);
    const secret = await enrollmentSecretOf(operator);
    const mqttUrl = `mqtt://127.0.0.1:${server.app.devices.mqttPort}`;
    for (let i = 1; i <= PANELS; i++) {
      const credentials = await enroll(server.url, `OUTAGE-${i}`, secret);
      panels.push(await connectBare(mqttUrl, credentials));
    }
  }, 120_000);

  afterAll(async () => {
    stopReports();
    await Promise.all(panels.map((p) => p.close()));
    await server?.stop();
    cluster?.destroy();
  });

  it('stays up through a stop, answers 503 meanwhile, keeps panels connected, recovers, and loses no report', async () => {
    startReports();
    await waitFor('reports flowing', async () => (await usageRows()) > PANELS);

    cluster.stop();
    const duringOutage = await deviceList();
    expect(duringOutage.status).toBe(503);
    expect(duringOutage.body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: expect.stringMatching(/unavailable/i),
    });
    const refused = await operator.post('/platform/group/insert', { groupName: 'during outage' });
    expect(refused.status).toBe(503);
    // Reports keep arriving for a while with the database away.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(panels.every((p) => p.client.connected)).toBe(true);
    const waiting = server.app.devices.gateway.waitingWrites;
    expect(waiting).toBeGreaterThan(0);

    const restartedAt = Date.now();
    cluster.start();
    await waitFor('the device list answering again', async () => (await deviceList()).status === 200, 30_000);
    const recoveredMs = Date.now() - restartedAt;
    stopReports();
    await waitFor('every report stored', async () => (await usageRows()) === sent, 30_000);
    const stored = await usageRows();
    console.log(
      `database outage: ${sent} usage reports sent, ${stored} stored, ${sent - stored} lost; ` +
        `${waiting} waiting at the height of the outage; answering again ${recoveredMs} ms after PostgreSQL started`,
    );
    expect(stored).toBe(sent);
    expect(panels.every((p) => p.client.connected)).toBe(true);
    const labels = await operator.get('/platform/group/list');
    expect(labels.body).toMatchObject({ hhtStatus: 'success' });
    expect(JSON.stringify(labels.body)).not.toContain('during outage');
  }, 120_000);

  it("keeps a panel's newest state when reports that waited for its lookup through an outage are written after it", async () => {
    const panel = panels[0]!;
    const ramUsed = async () =>
      (
        await server.app.db.kysely
          .selectFrom('devices')
          .select('ram_used')
          .where('device_key', '=', panel.key)
          .executeTakeFirstOrThrow()
      ).ram_used;
    const report = (n: number) =>
      panel.client.publishAsync(
        `pf/v1/d/${panel.key}/state`,
        JSON.stringify({ v: 1, ramUsed: n, ts: server.clock.now() - 1000 + n, uptimeMs: 600_000 + n }),
        { qos: 1 },
      );
    // Not cached (as with an external broker, which checks passwords itself): each report needs a lookup.
    server.app.devices.gateway.directory.forget(panel.key);
    cluster.stop();
    for (let n = 1; n <= 5; n++) await report(n);
    await waitFor(
      'the reports waiting for their lookup',
      () => server.app.devices.gateway.waitingWrites >= 5,
    );
    cluster.start();
    await waitFor('the device list answering again', async () => (await deviceList()).status === 200, 30_000);
    // The newest report finds the database at once; the waiting ones are retried after it.
    await report(6);
    await waitFor('the newest report written', async () => (await ramUsed()) === 6, 30_000);
    await waitFor(
      'the waiting reports handled',
      () => server.app.devices.gateway.waitingWrites === 0,
      30_000,
    );
    await server.app.devices.gateway.flushState();
    expect(await ramUsed()).toBe(6);
  }, 120_000);

  it('answers 503 at once while the database is frozen, and a command that could not be stored never runs later', async () => {
    const created = await operator.post('/platform/group/insert', { groupName: 'frozen test' });
    const groupId = device.insertGroup.reply.parse(created.body).dataObject.groupId;
    const ids = device.listDevices.reply
      .parse((await deviceList()).body)
      .listObject.map((d) => String(d.deviceId));
    await operator.post('/platform/group/saveGroupsAndDevices', {
      deviceIds: ids.join(','),
      groupIds: String(groupId),
    });
    const commandsBefore = panels.reduce((n, p) => n + p.commands.length, 0);

    cluster.freeze();
    const started = Date.now();
    const [list, command] = await Promise.all([
      deviceList(),
      operator.post('/sendData/sendCommandByTagIds', { tagIds: String(groupId), order: '00', value: '42' }),
    ]);
    const answeredMs = Date.now() - started;
    expect(list.status).toBe(503);
    expect(command.status).toBe(503);
    expect(command.body).toMatchObject({ hhtStatus: 'fail' });

    cluster.thaw();
    await waitFor('the device list answering again', async () => (await deviceList()).status === 200, 30_000);
    // Longer than a retry round: a command stored late would be published by now.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const stored = await server.app.db.kysely
      .selectFrom('commands')
      .select('id')
      .where('order_code', '=', '00')
      .where('value', '=', JSON.stringify(42))
      .execute();
    const commandsAfter = panels.reduce((n, p) => n + p.commands.length, 0);
    console.log(
      `frozen database: device list and label command answered 503 after ${answeredMs} ms; ` +
        `${stored.length} commands stored late, ${commandsAfter - commandsBefore} delivered late`,
    );
    expect(stored).toHaveLength(0);
    expect(commandsAfter).toBe(commandsBefore);
  }, 120_000);

  it('starts while the database is down, waiting for it, and serves once it answers', async () => {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE late_start');
    await admin.end();
    cluster.stop();
    const lateUrl = cluster.url.replace(/\/postgres$/, '/late_start');
    const starting = startServer('sqlite', { DATABASE_URL: lateUrl, DB_CONNECT_TIMEOUT_MS: '500' });
    let started = false;
    void starting.then(() => (started = true));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(started).toBe(false);
    cluster.start();
    const late = await starting;
    try {
      const reply = await fetch(`${late.url}/platform/config/runtime`);
      expect(reply.status).toBe(200);
    } finally {
      await late.stop();
    }
  }, 120_000);
});
