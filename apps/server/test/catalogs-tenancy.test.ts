import { device, machineTypes, sources } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccounts } from '../src/dev/seed-accounts.js';
import { enrollmentSecretOf } from './device-helpers.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestClient, type TestServer } from './harness.js';

/** Enrollment as a panel of the given series would do it; returns the device id. */
async function enrollAs(
  server: TestServer,
  operator: TestClient,
  serial: string,
  secret: string,
  machineType: string,
): Promise<number> {
  const response = await fetch(`${server.url}/device/enroll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ v: 1, serial, enrollmentSecret: secret, model: 'PF-86', machineType }),
  });
  device.enroll.reply.parse(await response.json());
  const list = device.listDevices.reply.parse(
    (await operator.get(`/platform/device/list?start=1&size=5&deviceName=${serial}`)).body,
  );
  return list.listObject.find((d) => d.deviceKey === serial)!.deviceId;
}

describe.each(backends)('catalog and feedback tenant probe on %s', (backend) => {
  let server: TestServer;
  let clients: Record<string, TestClient>;
  let aDevice: number;
  let bDevice: number;

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    await seedAccounts(server.app.db, TEST_PEPPER, server.clock, [
      { userName: 'b-sales', password: 'bsales123', userType: '1' },
      { userName: 'b-customer', password: 'bcustomer123', userType: '2', activated: 1 },
      { userName: 'b-manager', password: 'bmanager123', userType: '3' },
      { userName: 'b-operator', password: 'boperator123', userType: '4' },
    ]);
    clients = {};
    for (const [name, password] of [
      ['admin', 'admin123'],
      ['sales1', 'sales123'],
      ['customer1', 'customer123'],
      ['manager1', 'manager123'],
      ['operator1', 'operator123'],
      ['b-sales', 'bsales123'],
      ['b-customer', 'bcustomer123'],
      ['b-manager', 'bmanager123'],
      ['b-operator', 'boperator123'],
    ] as const) {
      clients[name] = await signedIn(server, name, password);
    }
    const a = clients.operator1!;
    const b = clients['b-operator']!;
    const aSecret = await enrollmentSecretOf(a);
    const bSecret = await enrollmentSecretOf(b);
    aDevice = await enrollAs(server, a, 'TENANT-A-1', aSecret, 'x9_vn');
    await enrollAs(server, a, 'TENANT-A-2', aSecret, 'x9_vn');
    bDevice = await enrollAs(server, b, 'TENANT-B-1', bSecret, 'x9_vn');
    await enrollAs(server, b, 'TENANT-B-2', bSecret, 'x9_vn');
    await enrollAs(server, b, 'TENANT-B-3', bSecret, 'oem');
  });
  afterAll(() => server.stop());

  it('counts only the devices within the caller’s reach; the platform counts every device', async () => {
    const expected: Record<string, { x9_vn: number; oem: number }> = {
      admin: { x9_vn: 4, oem: 1 },
      sales1: { x9_vn: 2, oem: 0 },
      manager1: { x9_vn: 2, oem: 0 },
      operator1: { x9_vn: 2, oem: 0 },
      'b-sales': { x9_vn: 2, oem: 1 },
      'b-manager': { x9_vn: 2, oem: 1 },
      'b-operator': { x9_vn: 2, oem: 1 },
    };
    for (const [name, counts] of Object.entries(expected)) {
      const list = machineTypes.listMachineTypes.reply.parse(
        (await clients[name]!.get('/platform/machineType/list?start=1&size=50')).body,
      );
      const seen = Object.fromEntries(
        list.listObject.filter((t) => t.machineType in counts).map((t) => [t.machineType, t.referenceCount]),
      );
      expect.soft(seen, name).toEqual(counts);
      const x9 = list.listObject.find((t) => t.machineType === 'x9_vn')!;
      const one = machineTypes.selectByMachineTypeId.reply.parse(
        (
          await clients[name]!.get(
            `/platform/machineType/selectByMachineTypeId?machineTypeId=${x9.machineTypeId}`,
          )
        ).body,
      );
      expect.soft(one.dataObject.referenceCount, `${name} select`).toBe(counts.x9_vn);
    }
  });

  it('keeps each company’s command feedback to itself, whatever name or date it searches for', async () => {
    const send = async (client: TestClient, deviceId: number, value: string) =>
      device.sendCommandByDeviceId.reply.parse(
        (
          await client.post('/sendData/sendCommandByDeviceId', {
            deviceId: String(deviceId),
            order: '00',
            value,
          })
        ).body,
      ).dataObject.commandId;
    const aCommand = await send(clients.operator1!, aDevice, '40');
    const bCommand = await send(clients['b-operator']!, bDevice, '41');
    const today = new Date(server.clock.now()).toISOString().slice(0, 10);
    const feedback = async (client: TestClient, query: string) =>
      device.listFeedback.reply.parse(
        (await client.get(`/platform/feedback/listFeedbackInfo?start=1&size=50${query}`)).body,
      );

    for (const [owner, own, foreign, foreignName] of [
      ['operator1', aCommand, bCommand, 'TENANT-B'],
      ['customer1', aCommand, bCommand, 'TENANT-B'],
      ['b-operator', bCommand, aCommand, 'TENANT-A'],
      ['b-customer', bCommand, aCommand, 'TENANT-A'],
    ] as const) {
      const client = clients[owner]!;
      for (const query of ['', `&createDate=${today}`, '&deviceName=TENANT']) {
        const ids = (await feedback(client, query)).listObject.map((r) => r.uuid);
        expect.soft(ids, `${owner} ${query}`).toContain(own);
        expect.soft(ids, `${owner} ${query}`).not.toContain(foreign);
      }
      expect
        .soft(
          (await feedback(client, `&deviceName=${foreignName}`)).totalRecords,
          `${owner} by a foreign name`,
        )
        .toBe(0);
    }
    // Users without devices get no feedback at all, not someone else's.
    for (const name of ['admin', 'sales1', 'manager1', 'b-sales', 'b-manager']) {
      const reply = await clients[name]!.get('/platform/feedback/listFeedbackInfo?start=1&size=50');
      expect.soft(reply.body.hhtStatus, name).toBe('fail');
      expect.soft(JSON.stringify(reply.body), name).not.toContain('TENANT');
    }
  });

  it('refuses bad feedback filters with a clear message', async () => {
    const zh = await signedIn(server, 'operator1', 'operator123', 'zh-CN');
    for (const query of ['createDate=2024-13-45x', 'createDate=yesterday', 'start=-1', 'size=1000']) {
      const reply = await zh.get(`/platform/feedback/listFeedbackInfo?${query}`);
      expect.soft(reply.body.hhtStatus, query).toBe('fail');
      expect.soft(reply.status, query).toBeLessThan(500);
    }
  });

  it('keeps each organisation’s signal sources to its tree: another’s read as missing, its keys as free', async () => {
    const c = clients;
    const add = (who: string, sourceKey: string) =>
      c[who]!.post('/source/addSource', { name: `${who} ${sourceKey}`, sourceKey });
    const added = async (who: string, sourceKey: string) =>
      sources.addSource.reply.parse((await add(who, sourceKey)).body).dataObject.id;
    const listed = async (who: string) =>
      sources.listSource.reply.parse((await c[who]!.get('/source/listSource?start=1&size=100')).body)
        .listObject;
    const aSource = await added('operator1', 'podium');
    const aDistributor = await added('sales1', 'dock');
    // The same keys in the other tree are free: nothing there says they exist elsewhere.
    expect((await add('b-manager', 'podium')).body.hhtStatus).toBe('success');
    expect((await add('b-sales', 'dock')).body.hhtStatus).toBe('success');

    const keysOf = async (who: string) =>
      (await listed(who)).filter((s) => s.owner !== 'catalog').map((s) => `${s.owner}:${s.sourceKey}`);
    for (const who of ['operator1', 'manager1'])
      expect(await keysOf(who)).toEqual(['company:podium', 'distributor:dock']);
    expect(await keysOf('sales1')).toEqual(['distributor:dock']);
    for (const who of ['b-operator', 'b-manager'])
      expect(await keysOf(who)).toEqual(['company:podium', 'distributor:dock']);
    expect(await keysOf('admin')).toEqual([]);

    // Another tree's source reads as missing, for every write; nothing changes.
    for (const who of ['b-sales', 'b-manager', 'b-operator', 'admin']) {
      for (const id of [aSource, aDistributor]) {
        for (const [url, form] of [
          ['/source/updateSource', { id: String(id), name: 'Taken', sourceKey: 'taken' }],
          ['/source/deleteSource', { id: String(id) }],
        ] as const) {
          const reply = await c[who]!.post(url, form);
          expect.soft(reply.status, `${who} ${url} ${id}`).toBe(404);
          expect.soft(reply.body.hhtMsg, `${who} ${url} ${id}`).toBe('No such signal source');
        }
      }
    }
    expect(await keysOf('operator1')).toEqual(['company:podium', 'distributor:dock']);
    // A customer sees its distributor's source but may not change it.
    const up = await c['manager1']!.post('/source/deleteSource', { id: String(aDistributor) });
    expect(up.status).toBe(403);

    // The source switch of a company's panels offers its own tree's sources only.
    const switchKeys = async (who: string) =>
      machineTypes.sourcesOfMachineType.reply
        .parse((await c[who]!.get('/platform/machineType/listSource?machineTypeId=1')).body)
        .listObject.map((o) => o.sourceKey);
    const catalogInputs = await switchKeys('admin');
    expect(await switchKeys('operator1')).toEqual([...catalogInputs, 'podium', 'dock']);
    expect(await switchKeys('b-customer')).toEqual([...catalogInputs, 'podium', 'dock']);
    // The two trees share the catalog's rows and nothing else.
    const aIds = (await listed('operator1')).map((s) => s.id);
    const bIds = (await listed('b-operator')).map((s) => s.id);
    const catalogIds = (await listed('admin')).map((s) => s.id);
    expect(aIds.filter((id) => bIds.includes(id))).toEqual(catalogIds);
  });
});
