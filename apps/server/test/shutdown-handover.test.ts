import fs from 'node:fs';
import pg from 'pg';
import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCountingPanel, type CountingPanel } from './counting-panel.js';
import { enrollmentSecretOf, operatorClient, waitFor } from './device-helpers.js';
import { backends, joinServer, startServer, type TestClient, type TestServer } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';
import { accepts, labelCommandInTwoParts } from './shutdown-helpers.js';

// Issue 23, item 7: A shuts down (what SIGTERM runs) in the middle of a label command's fan-out
// to 500 panels, with a second label command in flight. A stops publishing at once and hands
// what it has not published to B, which publishes it in its next retry round: both instances'
// clocks stand still, so B never waits out a claim's lease. Each panel runs each command once.

const PANELS = 500;
const RETRY_MS = 15_000;
// Retry rounds are run by the test (tickMs: an hour); small batches keep A's fan-out under way.
const timings = { commandTimings: { retryMs: RETRY_MS, tickMs: 3_600_000, publishBatch: 5 } };

describe.runIf(hasMosquitto && backends.includes('postgres'))(
  'an instance shutting down hands its unpublished commands and its job leases to the other',
  () => {
    let broker: ThrowawayMosquitto;
    let a: TestServer;
    let b: TestServer;
    let operator: TestClient;
    const panels: CountingPanel[] = [];

    beforeAll(async () => {
      broker = await ThrowawayMosquitto.start();
      // A starts first: it holds the dashboards' history job lease.
      a = await startServer('postgres', { MQTT_URL: broker.url }, timings);
      b = await joinServer(a, { MQTT_URL: broker.url }, timings);
      operator = await operatorClient(a);
    });
    afterAll(async () => {
      await Promise.all(panels.map((p) => p.client.endAsync(true)));
      await b?.stop();
      // A was closed by the test: its schema and directory go here.
      if (a?.schema) {
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`DROP SCHEMA ${a.schema} CASCADE`);
        await admin.end();
      }
      if (a) fs.rmSync(a.dataDir, { recursive: true, force: true });
      await broker?.dispose();
    });

    it('B publishes at once what A had not, each command once per panel', async () => {
      const secret = await enrollmentSecretOf(operator);
      let closing: Promise<void> | undefined;
      const serials = Array.from({ length: PANELS }, (_, i) => `HAND-${String(i).padStart(4, '0')}`);
      for (let i = 0; i < serials.length; i += 50)
        await Promise.all(
          serials.slice(i, i + 50).map(async (serial) => {
            const response = await fetch(`${a.url}/device/enroll`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ v: 1, serial, enrollmentSecret: secret }),
            });
            const creds = device.enroll.reply.parse(await response.json()).dataObject;
            panels.push(
              await connectCountingPanel(broker.url, creds, () => {
                // What SIGTERM runs, as soon as A's fan-out has reached its first panel.
                closing ??= a.app.close();
              }),
            );
          }),
        );
      await waitFor(
        'every panel ready on both instances',
        () => serials.every((s) => a.app.devices.gateway.isReady(s) && b.app.devices.gateway.isReady(s)),
        30_000,
      );
      await b.app.devices.commands.settle();
      const ids = (
        await a.app.db.kysely
          .selectFrom('devices')
          .select('id')
          .where('device_key', 'like', 'HAND-%')
          .execute()
      ).map((r) => r.id);
      const label = device.insertGroup.reply.parse(
        (await operator.post('/platform/group/insert', { groupName: 'handover' })).body,
      ).dataObject;
      await operator.post('/platform/group/saveGroupsAndDevices', {
        deviceIds: ids.join(','),
        groupIds: String(label.groupId),
      });
      const jobOnB = b.app.jobs.runsHere('dashboard-history', 60_000);
      expect(await jobOnB()).toBe(false);

      // The second command's request is under way on a kept-alive connection when A's shutdown begins.
      const second = labelCommandInTwoParts(
        a.url,
        `pf_session=${operator.cookie('pf_session')}`,
        label.groupId,
        '41',
      );
      const first = await operator.post('/sendData/sendCommandByTagIds', {
        tagIds: String(label.groupId),
        order: '00',
        value: '40',
      });
      expect(first.body).toMatchObject({ hhtStatus: 'success', dataObject: { count: PANELS } });
      await waitFor('A to begin its shutdown', () => closing !== undefined);
      await waitFor('A to take no new connection', async () => !(await accepts(Number(new URL(a.url).port))));
      second.finish();
      const secondReply = await second.reply;
      await closing;
      second.close();
      expect(secondReply.status).toBe(200);
      expect(JSON.parse(secondReply.body)).toMatchObject({
        hhtStatus: 'success',
        dataObject: { count: PANELS },
      });

      const handedBack = await b.app.db.kysely
        .selectFrom('commands')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('updated_at', '=', a.clock.now() - RETRY_MS)
        .executeTakeFirstOrThrow();
      const ranWhenAStopped = panels.reduce((n, p) => n + p.executions, 0);
      const startedAt = b.clock.now();
      await waitFor('B to publish the rest', async () => {
        await b.app.devices.commands.tick();
        await b.app.devices.commands.settle();
        return panels.every((p) => p.executions === 2);
      });
      console.log(
        `hand-over: ${ranWhenAStopped}/${2 * PANELS} commands run when A had stopped, ` +
          `${Number(handedBack.n)} handed back to B, the rest published by B with its clock unmoved`,
      );
      expect(b.clock.now()).toBe(startedAt);
      expect(Number(handedBack.n)).toBeGreaterThan(0);
      expect(panels.map((p) => p.executions)).toEqual(panels.map(() => 2));
      expect(panels.reduce((n, p) => n + p.duplicates, 0)).toBe(0);
      // A's job lease went with it: B runs the job at once.
      expect(await jobOnB()).toBe(true);
    }, 180_000);
  },
);
