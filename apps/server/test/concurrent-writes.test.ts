import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { enrollmentSecretOf, operatorClient } from './device-helpers.js';
import {
  backends,
  signedIn,
  startServer,
  type TestClient,
  type TestResponse,
  type TestServer,
} from './harness.js';

const PARALLEL = 20;

/**
 * Count-then-insert and check-then-insert rules under concurrency: many requests at once must
 * leave exactly what one at a time would, and every refused request answers a clean fail.
 */
describe.each(backends)('concurrent writes on %s', (backend) => {
  let server: TestServer;
  let customer: TestClient;
  let operator: TestClient;

  const consoleUsers = async () =>
    Number(
      (
        await server.app.db.kysely
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('org_id', '=', server.accounts.customerId)
          .where('user_type', 'in', ['3', '4'])
          .executeTakeFirstOrThrow()
      ).n,
    );
  const setQuota = (quota: number) =>
    server.app.db.kysely
      .updateTable('organisations')
      .set({ user_quota: quota })
      .where('id', '=', server.accounts.customerId)
      .execute();
  const addUser = (userName: string) =>
    customer.post('/platform/user/onlyInsertDeviceUserForm', {
      userName,
      password: md5Hex('staff1234'),
      phone: '13800000009',
      email: `${userName}@example.com`,
      state: '1',
      role: '0',
      userType: '4',
    });
  const outcomes = (replies: TestResponse[]) => ({
    statuses: [...new Set(replies.map((r) => r.status))].sort(),
    successes: replies.filter((r) => r.body.hhtStatus === 'success').length,
    failures: [
      ...new Set(
        replies
          .filter((r) => r.body.hhtStatus !== 'success')
          .map((r) => `${String(r.body.hhtStatus)}: ${String(r.body.hhtMsg)}`),
      ),
    ],
  });

  beforeAll(async () => {
    server = await startServer(backend);
    customer = await signedIn(server, 'customer1', 'customer123');
    operator = await operatorClient(server);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('creates exactly as many console users as the quota leaves, however many arrive at once', async () => {
    const existing = await consoleUsers();
    await setQuota(existing + 10);
    const replies = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => addUser(`quota${i}`)));
    expect(outcomes(replies)).toEqual({
      statuses: [200],
      successes: 10,
      failures: [`fail: Your company may have at most ${existing + 10} users`],
    });
    expect(await consoleUsers()).toBe(existing + 10);
  });

  it('creates one console user of a name asked for 20 times at once; the others fail cleanly', async () => {
    await setQuota(1000);
    const before = await consoleUsers();
    const replies = await Promise.all(Array.from({ length: PARALLEL }, () => addUser('samename')));
    const result = outcomes(replies);
    expect(result.successes).toBe(1);
    expect(result.statuses.every((s) => s < 500)).toBe(true);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatch(/^fail: /);
    expect(await consoleUsers()).toBe(before + 1);
  });

  it('enrolls a new serial asked for 20 times at once as one device; every request answers cleanly', async () => {
    const secret = await enrollmentSecretOf(operator);
    const enroll = (serial: string) =>
      fetch(`${server.url}/device/enroll`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          v: 1,
          serial,
          enrollmentSecret: secret,
          model: 'PF-86',
          machineType: 'x9_vn',
        }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    for (const serial of ['RACE-0001', 'RACE-0002', 'RACE-0003']) {
      const replies = await Promise.all(Array.from({ length: PARALLEL }, () => enroll(serial)));
      expect(replies.map((r) => [r.status, r.body.hhtStatus])).toEqual(
        Array.from({ length: PARALLEL }, () => [200, 'success']),
      );
      const rows = await server.app.db.kysely
        .selectFrom('devices')
        .select(['org_id'])
        .where('device_key', '=', serial)
        .execute();
      expect(rows).toEqual([{ org_id: server.accounts.customerId }]);
    }
  });

  it('creates one label of a name asked for 20 times at once; the others fail cleanly', async () => {
    for (const name of ['Hall B', 'Hall C', 'Hall D']) {
      const replies = await Promise.all(
        Array.from({ length: PARALLEL }, () => operator.post('/platform/group/insert', { groupName: name })),
      );
      expect(outcomes(replies)).toEqual({
        statuses: [200, 409],
        successes: 1,
        failures: ['fail: A label with this name exists'],
      });
      const rows = await server.app.db.kysely
        .selectFrom('labels')
        .select('id')
        .where('org_id', '=', server.accounts.customerId)
        .where('name', '=', name)
        .execute();
      expect(rows).toHaveLength(1);
    }
  });

  it('edits one device from 20 requests at once: each succeeds, and the device ends with exactly one request’s labels', async () => {
    const secret = await enrollmentSecretOf(operator);
    await fetch(`${server.url}/device/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        v: 1,
        serial: 'EDIT-0001',
        enrollmentSecret: secret,
        model: 'PF-86',
        machineType: 'x9_vn',
      }),
    });
    const { id } = await server.app.db.kysely
      .selectFrom('devices')
      .select('id')
      .where('device_key', '=', 'EDIT-0001')
      .executeTakeFirstOrThrow();
    const labelSets = Array.from({ length: PARALLEL }, (_, i) => [`Room ${i}`, `Floor ${i % 3}`]);
    const replies = await Promise.all(
      labelSets.map((tags, i) =>
        operator.post('/platform/device/update', {
          deviceId: String(id),
          deviceName: `Edited ${i}`,
          deviceKey: 'EDIT-0001',
          tag: tags.join('-'),
          remark: '',
          state: '1',
        }),
      ),
    );
    expect(outcomes(replies)).toEqual({ statuses: [200], successes: PARALLEL, failures: [] });
    const { name } = await server.app.db.kysely
      .selectFrom('devices')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const labels = await server.app.db.kysely
      .selectFrom('label_devices')
      .innerJoin('labels', 'labels.id', 'label_devices.label_id')
      .select('labels.name')
      .where('label_devices.device_id', '=', id)
      .execute();
    // Last writer wins, whole: the name and the labels come from the same request.
    const winner = Number(name.replace('Edited ', ''));
    expect(labels.map((l) => l.name).sort()).toEqual([...labelSets[winner]!].sort());
  });
});
