import { device } from '@panelfleet/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandRepository } from '../src/modules/commands/repository.js';
import type { BusMessage } from '../src/events/bus.js';
import { JobLeases } from '../src/modules/jobs/leases.js';
import { JobLeaseRepository } from '../src/modules/jobs/repository.js';
import { SESSION_COOKIE } from '../src/modules/session/service.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { backends, joinServer, startServer, TestClient, type TestServer } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';

// Two server instances on one PostgreSQL database and one Mosquitto (issue 18). Both read every
// panel's presence, so both hear a panel come back and both run the retry timer: the commands
// they would each send are claimed in the database, and each goes out once.

const RETRY_MS = 15_000;
// Ticks are run by the test, on both instances at once, instead of by their timers.
const timings = { commandTimings: { retryMs: RETRY_MS, tickMs: 3_600_000 } };

describe.runIf(hasMosquitto && backends.includes('postgres'))(
  'two instances on one PostgreSQL database and one broker',
  () => {
    let broker: ThrowawayMosquitto;
    let a: TestServer;
    let b: TestServer;
    let operatorOnA: TestClient;
    const panels: BareDevice[] = [];

    beforeAll(async () => {
      broker = await ThrowawayMosquitto.start();
      a = await startServer('postgres', { MQTT_URL: broker.url }, timings);
      b = await joinServer(a, { MQTT_URL: broker.url }, timings);
      operatorOnA = await operatorClient(a);
    });
    afterAll(async () => {
      for (const panel of panels) await panel.close();
      await b?.stop();
      await a?.stop();
      await broker?.dispose();
    });

    const bothReady = (key: string) =>
      a.app.devices.gateway.isReady(key) && b.app.devices.gateway.isReady(key);
    const bothOffline = (key: string) =>
      !a.app.devices.gateway.isOnline(key) && !b.app.devices.gateway.isOnline(key);

    /** Counts what the servers publish to a panel's command topic, as a second subscriber. */
    async function watchCommands(deviceKey: string) {
      const observer = await mqtt.connectAsync(broker.url, { clientId: `observer-${deviceKey}` });
      const counts = new Map<string, number>();
      let drains = 0;
      const drainTopic = `test/drained/${deviceKey}`;
      observer.on('message', (topic, payload) => {
        if (topic === drainTopic) drains++;
        else {
          const { id } = device.commandEnvelope.parse(JSON.parse(payload.toString()));
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
      });
      await observer.subscribeAsync([`pf/v1/d/${deviceKey}/cmd`, drainTopic], { qos: 1 });
      return {
        counts,
        /**
         * Waits for both instances' publishing to end, then for a marker published after it: the
         * broker acknowledged their publishes, so it delivers them to this subscriber first.
         */
        async drained() {
          await Promise.all([a.app.devices.commands.settle(), b.app.devices.commands.settle()]);
          const before = drains;
          await observer.publishAsync(drainTopic, 'after', { qos: 1 });
          await waitFor('the marker after the publishes', () => drains > before);
        },
        close: () => observer.endAsync(),
      };
    }

    it('a session made on A answers on B', async () => {
      const onB = new TestClient(b.url);
      onB.setCookie(SESSION_COOKIE, operatorOnA.cookie(SESSION_COOKIE)!);
      const reply = await onB.get('/platform/device/enrollmentSecret');
      expect(device.getEnrollmentSecret.reply.parse(reply.body).hhtStatus).toBe('success');
    });

    it('a panel that comes back gets each pending command once, though both instances heard it; retries go out once, and a dead claim is taken over', async () => {
      const secret = await enrollmentSecretOf(operatorOnA);
      const credentials = await enroll(a.url, 'TWO-00001', secret);
      const first = await connectBare(broker.url, credentials, { autoAck: false });
      await waitFor('both instances see the panel ready', () => bothReady(credentials.deviceKey));
      // A panel that shuts down says so itself (a clean disconnect sends no last will).
      await first.client.publishAsync(
        `pf/v1/d/${credentials.deviceKey}/presence`,
        JSON.stringify({ v: 1, online: false }),
        { qos: 1, retain: true },
      );
      await first.close();
      await waitFor('both instances see it gone', () => bothOffline(credentials.deviceKey));

      const operatorOnB = await operatorClient(b);
      const { id } = await a.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', credentials.deviceKey)
        .executeTakeFirstOrThrow();
      const sent: string[] = [];
      for (const value of ['10', '20', '30']) {
        const reply = await operatorOnB.post('/sendData/sendCommandByDeviceId', {
          deviceId: String(id),
          order: '00',
          value,
        });
        sent.push(device.sendCommandByDeviceId.reply.parse(reply.body).dataObject.commandId);
      }

      const watch = await watchCommands(credentials.deviceKey);
      const panel = await connectBare(broker.url, credentials, { autoAck: false });
      panels.push(panel);
      await waitFor('the three commands arrive', () => watch.counts.size === 3);
      await watch.drained();
      expect([...watch.counts].sort()).toEqual(sent.map((commandId) => [commandId, 1]).sort());

      // Both instances' retry timers fire together: each command is published again once.
      a.clock.advance(RETRY_MS + 1000);
      b.clock.advance(RETRY_MS + 1000);
      await Promise.all([a.app.devices.commands.tick(), b.app.devices.commands.tick()]);
      await watch.drained();
      expect([...watch.counts].sort()).toEqual(sent.map((commandId) => [commandId, 2]).sort());
      const rows = await a.app.db.kysely
        .selectFrom('commands')
        .select(['id', 'attempts'])
        .where('id', 'in', sent)
        .execute();
      expect(rows.map((r) => r.attempts)).toEqual([2, 2, 2]);

      // A claims the next retries and dies before publishing: B takes them over when the claim,
      // a lease of one retry period, has run out, not before.
      a.clock.advance(RETRY_MS + 1000);
      b.clock.advance(RETRY_MS + 1000);
      const claimedByA = await new CommandRepository(a.app.db.kysely, 'postgres').claimForRetryForPanels(
        sent,
        a.clock.now(),
        RETRY_MS,
      );
      expect(claimedByA.map((c) => c.id).sort()).toEqual([...sent].sort());
      await b.app.devices.commands.tick();
      await watch.drained();
      expect([...watch.counts.values()]).toEqual([2, 2, 2]);
      b.clock.advance(RETRY_MS + 1000);
      await b.app.devices.commands.tick();
      await watch.drained();
      expect([...watch.counts].sort()).toEqual(sent.map((commandId) => [commandId, 3]).sort());
      await watch.close();
    });
    it("a console connected to B sees what A publishes, but not A's copy of what B hears itself", async () => {
      const stream = await fetch(`${b.url}/platform/live/events`, {
        headers: { cookie: `${SESSION_COOKIE}=${operatorOnA.cookie(SESSION_COOKIE)!}` },
      });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const readUntil = async (needle: string) => {
        while (!text.includes(needle)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended before ${needle}`);
          text += decoder.decode(value, { stream: true });
        }
      };
      await readUntil('\n\n');

      const heardOnB: BusMessage[] = [];
      const unsubscribe = b.app.events.subscribe((message) => heardOnB.push(message));
      const orgId = a.accounts.customerId;
      // Presence: B hears it from the broker itself; A's copy stays on A.
      a.app.events.publish({
        kind: 'live',
        orgId,
        event: { type: 'presence', deviceId: 1, deviceKey: 'LOCAL-ONLY', online: true, at: a.clock.now() },
        local: true,
      });
      a.app.publishTaskProgress(orgId, {
        kind: 'ota',
        taskId: 'task-on-a',
        done: 3,
        failed: 1,
        total: 10,
        finished: false,
      });
      await readUntil('task-on-a');
      expect(text).toContain('"done":3');
      expect(text).not.toContain('LOCAL-ONLY');
      expect(heardOnB.map((m) => (m.kind === 'live' ? m.event.type : m.kind))).toEqual(['taskProgress']);

      // What A publishes in one tick crosses in as few notifications as fit, in order.
      heardOnB.length = 0;
      for (let i = 0; i < 300; i++)
        a.app.publishTaskProgress(orgId, {
          kind: 'ota',
          taskId: `burst-${i}`,
          done: i,
          failed: 0,
          total: 300,
          finished: false,
        });
      await waitFor('the burst on B', () => heardOnB.length === 300);
      expect(
        heardOnB.map((m) => (m.kind === 'live' && m.event.type === 'taskProgress' ? m.event.taskId : '')),
      ).toEqual(Array.from({ length: 300 }, (_, i) => `burst-${i}`));

      // A sign-out on A ends the session's streams on B.
      const signedOut = await new TestClient(a.url).request('POST', '/platform/loginOut', {
        headers: { cookie: `${SESSION_COOKIE}=${operatorOnA.cookie(SESSION_COOKIE)!}` },
      });
      expect(signedOut.status).toBeLessThan(400);
      await waitFor('the stream on B ends', async () => {
        const { done } = await reader.read();
        return done;
      });
      unsubscribe();
    });
    it("a burst of state reports split between the instances leaves each panel's row at its last report", async () => {
      b.clock.time = a.clock.time; // the instances' clocks agree (the test moved them apart)
      // A fresh session: the test before signed out the first one.
      const secret = await enrollmentSecretOf(await operatorClient(a));
      const burst: BareDevice[] = [];
      for (let i = 1; i <= 8; i++) {
        const credentials = await enroll(a.url, `BURST-${String(i).padStart(3, '0')}`, secret);
        burst.push(await connectBare(broker.url, credentials));
      }
      panels.push(...burst);
      await waitFor('both instances see the panels ready', () => burst.every((p) => bothReady(p.key)));
      const received = () => a.app.devices.gateway.stats.received + b.app.devices.gateway.stats.received;
      // A batch that met the other instance's (a deadlock) is tried again: flushed until nothing waits.
      const bothWritten = () =>
        waitFor('both instances wrote what they received', async () => {
          await Promise.all([a.app.devices.gateway.flushState(), b.app.devices.gateway.flushState()]);
          return a.app.devices.gateway.waitingWrites + b.app.devices.gateway.waitingWrites === 0;
        });
      const [before, beforeOnA] = [received(), a.app.devices.gateway.stats.received];
      const REPORTS = 40;
      // Report n was made at an uptime of 60 s + n ms (protocol 5.1), which orders it whichever
      // instance gets it (the instances' clocks stand still here, so every receive time ties).
      const start = a.clock.now() - 30_000;
      const uptime = 60_000;
      await Promise.all(
        burst.map(async (panel) => {
          for (let n = 1; n <= REPORTS; n++)
            await panel.client.publishAsync(
              `pf/v1/d/${panel.key}/state`,
              JSON.stringify({ v: 1, ramUsed: n, volume: n, ts: start + n, uptimeMs: uptime + n }),
              { qos: 1 },
            );
        }),
      );
      await waitFor(
        'both instances received every report',
        () => received() - before === REPORTS * burst.length,
      );
      const onA = a.app.devices.gateway.stats.received - beforeOnA;
      expect(onA).toBeGreaterThan(0);
      expect(onA).toBeLessThan(REPORTS * burst.length);
      // Each instance looks a panel up (once) before it handles the panel's first report.
      await waitFor('both instances know the panels', () =>
        burst.every(
          (p) =>
            a.app.devices.gateway.directory.cached(p.key) && b.app.devices.gateway.directory.cached(p.key),
        ),
      );
      await bothWritten();
      const rows = await a.app.db.kysely
        .selectFrom('devices')
        .select(['device_key', 'ram_used', 'volume'])
        .where('device_key', 'like', 'BURST-%')
        .orderBy('device_key')
        .execute();
      expect(rows).toEqual(burst.map((p) => ({ device_key: p.key, ram_used: REPORTS, volume: REPORTS })));

      // An older report that comes late (a redelivery, or one that waited for the database) changes nothing.
      const beforeLate = received();
      for (const panel of burst)
        await panel.client.publishAsync(
          `pf/v1/d/${panel.key}/state`,
          JSON.stringify({ v: 1, ramUsed: 5, volume: 5, brightness: 5, ts: start + 5, uptimeMs: uptime + 5 }),
          { qos: 1 },
        );
      await waitFor(
        'both instances received the late reports',
        () => received() - beforeLate === burst.length,
      );
      await bothWritten();
      const late = await a.app.db.kysely
        .selectFrom('devices')
        .select(['device_key', 'ram_used', 'volume', 'brightness'])
        .where('device_key', 'like', 'BURST-%')
        .orderBy('device_key')
        .execute();
      // Brightness: no newer report carried it, so the late one's value is the newest there is.
      expect(late).toEqual(
        burst.map((p) => ({ device_key: p.key, ram_used: REPORTS, volume: REPORTS, brightness: 5 })),
      );
    });
    it('a periodic job runs on one instance at a time, and another takes it over when its lease lapses', async () => {
      b.clock.time = a.clock.time; // the instances' clocks agree (the test moved them apart)
      const onA = new JobLeases(new JobLeaseRepository(a.app.db.kysely), a.clock);
      const onB = new JobLeases(new JobLeaseRepository(b.app.db.kysely), b.clock);
      const [aRuns, bRuns] = [onA.runsHere('test-job', 1000), onB.runsHere('test-job', 1000)];
      // Both ask at once, again and again: one holds the job every time, the other never.
      const asked = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? bRuns() : aRuns())));
      const byA = asked.filter((_, i) => i % 2 === 0);
      const byB = asked.filter((_, i) => i % 2 === 1);
      expect(new Set(byA).size).toBe(1);
      expect(new Set(byB).size).toBe(1);
      expect(byA[0]).not.toBe(byB[0]);
      const [holder, other, holderClock, otherClock] = byA[0]
        ? [aRuns, bRuns, a.clock, b.clock]
        : [bRuns, aRuns, b.clock, a.clock];

      // The holder stops asking (it died): within two periods the job stays with it, then moves.
      holderClock.advance(1500);
      otherClock.advance(1500);
      expect(await other()).toBe(false);
      holderClock.advance(600);
      otherClock.advance(600);
      expect(await other()).toBe(true);
      expect(await holder()).toBe(false);
    });
  },
);
