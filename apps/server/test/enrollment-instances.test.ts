import { device } from '@panelfleet/contract';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardRepository } from '../src/modules/dashboards/repository.js';
import { enrollmentSecretOf, fullState, operatorClient } from './device-helpers.js';
import { backends, joinServer, startServer, type TestServer } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';

// Issue 23, item 2: panels enrolling through two instances on one PostgreSQL database while the
// panels enrolled before them report. Each enrollment counted its panel in the company's facet
// rows (machine types, versions, places) in one order while the map placement of the reporting
// panels updated the same rows in another, holding them across one statement per panel: some
// enrollments were aborted for a deadlock and answered 503.

const PANELS = 1000;
/** Requests in flight at once: how the simulator's fleet starts its panels (50 at a time). */
const IN_FLIGHT = 50;
const MACHINE_TYPES = ['x9_vn', 'oem', 'rs'] as const;
/**
 * Where panel i reports itself, as the simulator places its panels: a stretch of coast around
 * Shanghai, so some positions lie offshore, outside every region of the map (placed by position,
 * no country), and the map placement changes different facets from one panel to the next.
 */
const positionOf = (i: number) => ({ latitude: 31.2 + (i % 50) / 100, longitude: 121.4 + (i % 70) / 100 });

describe.runIf(hasMosquitto && backends.includes('postgres'))(
  'enrollment through two instances on one PostgreSQL database',
  () => {
    let broker: ThrowawayMosquitto;
    let a: TestServer;
    let b: TestServer;

    beforeAll(async () => {
      broker = await ThrowawayMosquitto.start();
      a = await startServer('postgres', { MQTT_URL: broker.url });
      b = await joinServer(a, { MQTT_URL: broker.url });
    });
    afterAll(async () => {
      await b?.stop();
      await a?.stop();
      await broker?.dispose();
    });

    it(
      `enrolls ${PANELS} panels through both instances while the enrolled ones report: none answered 503, each enrolled once with a working password`,
      { timeout: 300_000 },
      async () => {
        const secret = await enrollmentSecretOf(await operatorClient(a));
        const reporter = await mqtt.connectAsync(broker.url, { clientId: 'enrolled-panels' });
        const report = (key: string, fields: Partial<device.StateReport>) =>
          reporter.publishAsync(`pf/v1/d/${key}/state`, JSON.stringify({ v: 1, ts: Date.now(), ...fields }), {
            qos: 0,
          });
        const enrolled: string[] = [];
        let reporting = true;
        const telemetry = (async () => {
          while (reporting) {
            await Promise.all(
              enrolled.map((key) => report(key, { cpuTemperature: 40 + Math.random() * 10 })),
            );
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        })();

        const statuses = new Map<number, number>();
        const passwords = new Map<string, string>();
        let next = 0;
        const enrollNext = async () => {
          while (next < PANELS) {
            const i = next++;
            const serial = `ENR-${String(i).padStart(5, '0')}`;
            const machineType = MACHINE_TYPES[i % 3];
            const response = await fetch(`${(i % 2 ? b : a).url}/device/enroll`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ v: 1, serial, enrollmentSecret: secret, model: 'PF-86', machineType }),
            });
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            const body = (await response.json()) as unknown;
            if (response.status !== 200) continue;
            const { deviceKey, password } = device.enroll.reply.parse(body).dataObject;
            passwords.set(deviceKey, password);
            // A panel reports everything as soon as it is connected.
            await report(deviceKey, { ...fullState({ machineType }), ...positionOf(i) });
            enrolled.push(deviceKey);
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, enrollNext));
        reporting = false;
        await telemetry;
        await reporter.endAsync();

        expect(Object.fromEntries(statuses)).toEqual({ 200: PANELS });
        const rows = await a.app.db.kysely
          .selectFrom('devices')
          .select('device_key')
          .where('device_key', 'like', 'ENR-%')
          .execute();
        expect(rows).toHaveLength(PANELS);
        // The password each panel was answered is the one both instances accept.
        const refused: string[] = [];
        for (const [key, password] of passwords)
          for (const server of [a, b])
            if (!(await server.app.devices.verifyPanel(key, password)))
              refused.push(`${key} on ${server.url}`);
        expect(refused).toEqual([]);

        // The company's machine-type counts are exact, with changes still to fold and after a fold.
        const dashboards = new DashboardRepository(a.app.db.kysely);
        const types = async () =>
          Object.fromEntries(
            (await dashboards.figures([a.accounts.customerId], 0, 0, 0)).facets
              .filter((f) => f.facet === 'type')
              .map((f) => [f.value, f.total]),
          );
        const expected = { x9_vn: 334, oem: 333, rs: 333 };
        expect(await types()).toEqual(expected);
        await dashboards.foldFacetChangesAllCompanies();
        expect(await types()).toEqual(expected);
        // Reports still being written may add firmware changes; the machine types' are all folded.
        const unfolded = a.app.db.kysely
          .selectFrom('device_facet_changes')
          .selectAll()
          .where('facet', '=', 'type');
        expect(await unfolded.execute()).toEqual([]);
      },
    );
  },
);
