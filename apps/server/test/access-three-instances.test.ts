import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../src/security/tokens.js';
import {
  connectBare,
  enroll,
  enrollmentSecretOf,
  operatorClient,
  waitFor,
  type BareDevice,
} from './device-helpers.js';
import { backends, joinServer, startServer, type TestClient, type TestServer } from './harness.js';

// Issue 23, item 1: three instances on one PostgreSQL database, each with its own embedded broker
// (panels may reach any of them). A panel's access changes made through A reach B's and C's
// credential caches and connections through the event bus, without a restart.

const accepted = 'accepted';

/** A panel's HTTP call (HTTP Basic) on one instance: 401 when its credentials are refused. */
async function httpAccess(server: TestServer, key: string, password: string) {
  const response = await fetch(`${server.url}/device/files/nothing-here.bin`, {
    headers: { authorization: `Basic ${Buffer.from(`${key}:${password}`).toString('base64')}` },
  });
  await response.arrayBuffer();
  return response.status === 401 ? 'refused' : accepted;
}

/** A panel's MQTT login on one instance's embedded broker. */
function mqttAccess(server: TestServer, key: string, password: string) {
  return mqtt
    .connectAsync(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, {
      clientId: key,
      username: key,
      password,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    })
    .then(
      async (client) => (await client.endAsync(), accepted),
      () => 'refused',
    );
}

async function setState(server: TestServer, operator: TestClient, key: string, state: '0' | '1') {
  const row = await server.app.db.kysely
    .selectFrom('devices')
    .select('id')
    .where('device_key', '=', key)
    .executeTakeFirstOrThrow();
  const reply = await operator.post('/platform/device/update', {
    deviceId: String(row.id),
    deviceName: key,
    deviceKey: key,
    tag: 'access',
    state,
  });
  expect(reply.body).toMatchObject({ hhtStatus: 'success' });
}

/** A bare panel connected to one instance's broker, with a flag set when that connection ends. */
async function connectedTo(server: TestServer, creds: { deviceKey: string; password: string }) {
  const panel = await connectBare(`mqtt://127.0.0.1:${server.app.devices.mqttPort}`, creds);
  const flag = { closed: false };
  panel.client.on('close', () => (flag.closed = true));
  await waitFor('the panel online there', () => server.app.devices.gateway.isOnline(creds.deviceKey));
  return { panel, flag };
}

describe.runIf(backends.includes('postgres'))('panel access changes across three instances', () => {
  let a: TestServer;
  let b: TestServer;
  let c: TestServer;
  let operator: TestClient;
  let secret: string;
  const panels: BareDevice[] = [];
  /** How long each change took to hold on B and C (printed: the budget is docs/operations.md's). */
  const took: Record<string, number> = {};

  beforeAll(async () => {
    a = await startServer('postgres');
    b = await joinServer(a);
    c = await joinServer(a);
    operator = await operatorClient(a);
    secret = await enrollmentSecretOf(operator);
  });
  afterAll(async () => {
    for (const panel of panels) await panel.client.endAsync(true);
    await c?.stop();
    await b?.stop();
    await a?.stop();
    console.log(`access changes held on B and C after (ms): ${JSON.stringify(took)}`);
  });

  /** Waits until `check` holds on B and on C; records how long that took. */
  async function heldOnOthers(what: string, check: (server: TestServer) => Promise<boolean>) {
    const started = Date.now();
    await waitFor(what, async () => (await check(b)) && (await check(c)));
    took[what] = Date.now() - started;
  }

  it('a re-enrolled panel: B and C take only the new password and end the old connection', async () => {
    const first = await enroll(a.url, 'ACCESS-RENEW', secret);
    // B and C cache the first password (HTTP) and B holds the panel's connection.
    expect(await httpAccess(b, first.deviceKey, first.password)).toBe(accepted);
    expect(await httpAccess(c, first.deviceKey, first.password)).toBe(accepted);
    const onB = await connectedTo(b, first);
    panels.push(onB.panel);

    const second = await enroll(a.url, 'ACCESS-RENEW', secret);
    await heldOnOthers(
      'new password',
      async (server) =>
        (await httpAccess(server, second.deviceKey, second.password)) === accepted &&
        (await httpAccess(server, first.deviceKey, first.password)) === 'refused',
    );
    await waitFor('the connection made with the old password ended on B', () => onB.flag.closed);
    expect(await mqttAccess(c, first.deviceKey, first.password)).toBe('refused');
    expect(await mqttAccess(c, second.deviceKey, second.password)).toBe(accepted);
  });

  it('a disabled panel is refused by B and C and its connection on C ends; enabled, it is taken again', async () => {
    const creds = await enroll(a.url, 'ACCESS-OFF', secret);
    expect(await httpAccess(b, creds.deviceKey, creds.password)).toBe(accepted);
    const onC = await connectedTo(c, creds);
    panels.push(onC.panel);

    await setState(a, operator, creds.deviceKey, '0');
    await heldOnOthers(
      'disabled',
      async (server) => (await httpAccess(server, creds.deviceKey, creds.password)) === 'refused',
    );
    await waitFor('the disabled panel disconnected from C', () => onC.flag.closed);
    expect(await mqttAccess(b, creds.deviceKey, creds.password)).toBe('refused');

    await setState(a, operator, creds.deviceKey, '1');
    await heldOnOthers(
      'enabled',
      async (server) => (await httpAccess(server, creds.deviceKey, creds.password)) === accepted,
    );
    expect(await mqttAccess(b, creds.deviceKey, creds.password)).toBe(accepted);
  });

  it.each(['1', '0'])(
    'a panel removed in the console (keepHistory %s) is refused by B and C and its connection on B ends',
    async (keepHistory) => {
      const creds = await enroll(a.url, `ACCESS-GONE${keepHistory}`, secret);
      expect(await httpAccess(c, creds.deviceKey, creds.password)).toBe(accepted);
      const onB = await connectedTo(b, creds);
      panels.push(onB.panel);

      const row = await a.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', creds.deviceKey)
        .executeTakeFirstOrThrow();
      const reply = await operator.post('/platform/device/remove', { deviceId: String(row.id), keepHistory });
      expect(reply.body).toMatchObject({ hhtStatus: 'success' });
      await heldOnOthers(
        `removed, history ${keepHistory === '1' ? 'kept' : 'deleted'}`,
        async (server) => (await httpAccess(server, creds.deviceKey, creds.password)) === 'refused',
      );
      await waitFor('the removed panel disconnected from B', () => onB.flag.closed);
      expect(await mqttAccess(c, creds.deviceKey, creds.password)).toBe('refused');
    },
  );

  it('an instance that may have missed changes while its listening connection was down drops its cache', async () => {
    const creds = await enroll(a.url, 'ACCESS-MISSED', secret);
    expect(await httpAccess(b, creds.deviceKey, creds.password)).toBe(accepted);
    const onB = await connectedTo(b, creds);
    panels.push(onB.panel);

    // A change whose notification B never gets: written behind every instance's back.
    await a.app.db.kysely
      .updateTable('devices')
      .set({ secret_hash: tokenHash('a password nobody told B about') })
      .where('device_key', '=', creds.deviceKey)
      .execute();
    expect(await httpAccess(b, creds.deviceKey, creds.password)).toBe(accepted);

    // The instances' listening connections break (a database restart or a network cut) and come back.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ended: boolean }>(
        'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
        [`pf_events_${a.schema}`],
      );
      expect(rows.length).toBe(3);
    } finally {
      await admin.end();
    }
    await waitFor(
      'B to drop what it cached',
      async () => (await httpAccess(b, creds.deviceKey, creds.password)) === 'refused',
    );
    await waitFor('the connection made with the stale password ended on B', () => onB.flag.closed);
  });
});
