import { device } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnrollmentRepository } from '../src/modules/devices/enrollment-repository.js';
import { OrganisationRepository } from '../src/modules/organisations/repository.js';
import { randomToken, tokenHash } from '../src/security/tokens.js';
import { enroll, enrollmentSecretOf, operatorClient } from './device-helpers.js';
import { backends, startServer, type TestServer } from './harness.js';
import { hasMosquitto, ThrowawayMosquitto } from './mosquitto-helpers.js';

async function postEnroll(server: TestServer, serial: string, enrollmentSecret: string, language = 'en-US') {
  const response = await fetch(`${server.url}/device/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': language },
    body: JSON.stringify({ v: 1, serial, enrollmentSecret }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(backends)('enrollment answers on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(() => server.stop());

  it('answers a serial enrolled by another company exactly like a wrong secret', async () => {
    const secretA = await enrollmentSecretOf(await operatorClient(server));
    await enroll(server.url, 'TAKEN-0001', secretA);
    // A second company with its own, valid enrollment secret.
    const orgs = new OrganisationRepository(server.app.db.kysely);
    const otherOrg = await orgs.insert({
      parent_id: server.accounts.distributorId,
      kind: 'customer',
      name: 'Other School',
      user_quota: 5,
      created_at: server.clock.now(),
    });
    const secretB = randomToken(24);
    await new EnrollmentRepository(server.app.db.kysely).upsert({
      org_id: otherOrg,
      secret: secretB,
      secret_hash: tokenHash(secretB),
      rotated_at: server.clock.now(),
    });

    for (const language of ['en-US', 'zh-CN']) {
      const wrongSecret = await postEnroll(server, 'TAKEN-0001', 'w'.repeat(32), language);
      const unknownSerialWrongSecret = await postEnroll(server, 'FREE-0001', 'w'.repeat(32), language);
      const elsewhere = await postEnroll(server, 'TAKEN-0001', secretB, language);
      expect(wrongSecret.body).toMatchObject({ hhtStatus: 'fail' });
      expect(elsewhere).toEqual(wrongSecret);
      expect(unknownSerialWrongSecret).toEqual(wrongSecret);
    }
    // Company B's secret still enrolls a serial nobody holds; the taken one stays company A's.
    expect((await enroll(server.url, 'FREE-0002', secretB)).deviceKey).toBe('FREE-0002');
    const taken = await server.app.db.kysely
      .selectFrom('devices')
      .select('org_id')
      .where('device_key', '=', 'TAKEN-0001')
      .executeTakeFirstOrThrow();
    expect(taken.org_id).toBe(server.accounts.customerId);
  });

  it('answers with the HTTP codes the protocol lists, and enrolls a panel of a machine type the catalog lacks', async () => {
    const operator = await operatorClient(server);
    const secret = await enrollmentSecretOf(operator);
    const post = async (body: string, contentType = 'application/json') => {
      const response = await fetch(`${server.url}/device/enroll`, {
        method: 'POST',
        headers: { 'content-type': contentType, 'accept-language': 'en-US' },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const json = (fields: Record<string, unknown>) =>
      JSON.stringify({ v: 1, enrollmentSecret: secret, ...fields });

    const cases: Array<[string, Awaited<ReturnType<typeof post>>, number, string | undefined]> = [
      [
        'a serial breaking the pattern',
        await post(json({ serial: 'no spaces' })),
        400,
        'device.serialInvalid',
      ],
      ['another protocol version', await post(json({ v: 2, serial: 'CODE-0001' })), 400, undefined],
      [
        'a secret of the wrong length',
        await post(json({ serial: 'CODE-0001', enrollmentSecret: 'short' })),
        400,
        'device.enrollmentRefused',
      ],
      [
        'a wrong secret',
        await post(json({ serial: 'CODE-0001', enrollmentSecret: 'w'.repeat(32) })),
        403,
        'device.enrollmentRefused',
      ],
      ['malformed JSON', await post('{"v":1,'), 400, 'common.invalidParams'],
      [
        'a body over 1 MiB',
        await post(json({ serial: 'CODE-0001', model: 'x'.repeat(1_100_000) })),
        413,
        'common.invalidParams',
      ],
      ['a body neither JSON nor form-encoded', await post('v=1', 'text/plain'), 400, undefined],
    ];
    for (const [what, reply, status, key] of cases) {
      expect.soft(reply.status, what).toBe(status);
      expect.soft(reply.body.hhtStatus, what).toBe('fail');
      if (key) expect.soft(reply.body.hhtMsgKey, what).toBe(key);
    }
    expect(
      await server.app.db.kysely
        .selectFrom('devices')
        .select('id')
        .where('device_key', '=', 'CODE-0001')
        .execute(),
    ).toEqual([]);

    // Form-encoded works as well; a machine type the catalog does not know is accepted as reported.
    const form = await post(
      new URLSearchParams({
        v: '1',
        serial: 'CODE-0002',
        enrollmentSecret: secret,
        machineType: 'pf_future',
      }).toString(),
      'application/x-www-form-urlencoded',
    );
    expect(form.status).toBe(200);
    const [listed] = device.listDevices.reply.parse(
      (await operator.get('/platform/device/list?start=1&size=5&deviceName=CODE-0002')).body,
    ).listObject;
    expect(listed).toMatchObject({ deviceKey: 'CODE-0002', machineType: 'pf_future' });
    const detail = await operator.get(`/platform/device/selectByDeviceId?deviceId=${listed!.deviceId}`);
    expect(detail.body.dataObject).toMatchObject({ machineType: 'pf_future', machineTypeId: null });
  });
});

describe.runIf(hasMosquitto)(
  'enrollment behind an external broker whose URL carries the server login',
  () => {
    let broker: ThrowawayMosquitto;
    let server: TestServer;
    beforeAll(async () => {
      broker = await ThrowawayMosquitto.start();
      server = await startServer('sqlite', {
        MQTT_URL: `mqtt://panelfleet-server:server-Secret-77@127.0.0.1:${broker.port}`,
      });
    });
    afterAll(async () => {
      await server?.stop();
      await broker?.dispose();
    });

    it('never hands the server credentials to a panel', async () => {
      const creds = await enroll(
        server.url,
        'NOLEAK-0001',
        await enrollmentSecretOf(await operatorClient(server)),
      );
      expect(creds.mqttUrls).toEqual([`mqtt://127.0.0.1:${broker.port}`]);
      expect(JSON.stringify(creds)).not.toMatch(/server-Secret-77|panelfleet-server/);
    });
  },
);
