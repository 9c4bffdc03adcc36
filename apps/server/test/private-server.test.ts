import { failReply, servers } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { backends, signedIn, startServer, TestClient, type TestServer } from './harness.js';

const DAY = 86_400_000;

describe.each(backends)('private server activation between two instances on %s', (backend) => {
  let platform: TestServer;
  let privateServer: TestServer;
  let admin: TestClient;

  const serverLicense = async (days: number, type: 0 | 1 = 1) => {
    const reply = await admin.post('/platform/license/add', {
      companyName: 'Lakeside Hospital',
      saleName: String(salespersonId),
      state: '1',
      type: String(type),
      validBeginTime: String(platform.clock.now() - DAY),
      validEndTime: String(platform.clock.now() + days * DAY),
    });
    return (reply.body as { dataObject: { license: string } }).dataObject.license;
  };
  let salespersonId = 0;

  beforeAll(async () => {
    platform = await startServer(backend, { SERVER_REPORT_INTERVAL_MS: '60000' });
    privateServer = await startServer(backend, {
      PLATFORM_URL: platform.url,
      SERVER_REPORT_INTERVAL_MS: '60000',
    });
    admin = await signedIn(platform, 'admin', 'admin123');
    await admin.post('/platform/saleMan/add', {
      work_number: 'S9',
      name: 'Zhou Min',
      companyName: 'West Sales',
      phone: '13800000002',
    });
    const list = (await admin.get('/platform/saleMan/list?start=1&size=10')).body as {
      listObject: Array<{ id: number }>;
    };
    salespersonId = list.listObject[0]!.id;
  });
  afterAll(async () => {
    await privateServer.stop();
    await platform.stop();
  });

  const check = async () =>
    (await new TestClient(privateServer.url).post('/serverLicense/checkLicense')).body;
  const listed = async () =>
    servers.listServer.reply.parse((await admin.get('/server/listServer?start=1&size=10')).body).listObject;

  it('walks 3004, activation, report, expiry, 3005 and re-activation', async () => {
    expect(await check()).toMatchObject({ hhtStatus: 'fail', hhtErrorCode: '3004' });
    const blocked = await new TestClient(privateServer.url).post('/platform/login', {
      username: 'admin',
      password: md5Hex('admin123'),
      tryCode: 'x',
    });
    expect(blocked.body).toMatchObject({ hhtStatus: 'fail', hhtErrorCode: '3004' });

    const wrongType = await new TestClient(privateServer.url).post('/serverLicense/registerLicense', {
      license: await serverLicense(30, 0),
    });
    expect(failReply.parse(wrongType.body).hhtMsg).toBe('This license is not a server license');
    const empty = await new TestClient(privateServer.url, 'zh-CN').post('/serverLicense/registerLicense', {
      license: ' ',
    });
    expect(failReply.parse(empty.body).hhtMsg).toBe('请输入许可证');

    const first = await serverLicense(30);
    const activation = await new TestClient(privateServer.url).post('/serverLicense/registerLicense', {
      license: first,
    });
    expect(activation.body).toMatchObject({ hhtStatus: 'success', hhtMsg: 'The server is activated' });
    expect(await check()).toMatchObject({ hhtStatus: 'success' });
    await signedIn(privateServer, 'admin', 'admin123');
    const reused = await new TestClient(privateServer.url).post('/serverLicense/activationServer', {
      license: first,
    });
    expect(failReply.parse(reused.body).hhtMsg).toBe('This license has already been used');

    let rows = await listed();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ companyName: 'Lakeside Hospital', isOnline: 1, state: 1 });
    expect(rows[0]!.mac).toMatch(/^[0-9a-f:]{17}$/);

    platform.clock.advance(4 * 60_000);
    expect((await listed())[0]!.isOnline).toBe(0);
    await privateServer.app.serverLicense.reportNow();
    expect((await listed())[0]!.isOnline).toBe(1);

    privateServer.clock.advance(31 * DAY);
    platform.clock.advance(31 * DAY);
    admin = await signedIn(platform, 'admin', 'admin123');
    expect(await check()).toMatchObject({ hhtStatus: 'fail', hhtErrorCode: '3005' });
    expect((await listed())[0]!.state).toBe(0);
    const synced = servers.syncData.reply.parse((await admin.post('/server/syncData')).body);
    expect(synced.dataObject).toEqual({ expired: 1, available: 0 });

    const renewal = await serverLicense(365);
    expect(
      (await new TestClient(privateServer.url).post('/serverLicense/activationServer', { license: renewal }))
        .body.hhtStatus,
    ).toBe('success');
    expect(await check()).toMatchObject({ hhtStatus: 'success' });
    rows = await listed();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 1, isOnline: 1 });
  });

  it('filters the server list by company in any case and by the caller’s day', async () => {
    const rows = await listed();
    const created = rows[0]!.createDate;
    const day = (offsetMinutes: number) =>
      new Date(created + offsetMinutes * 60_000).toISOString().slice(0, 10);
    const count = async (query: string) =>
      servers.listServer.reply.parse((await admin.get(`/server/listServer?start=1&size=10&${query}`)).body)
        .totalRecords;
    expect(await count('companyName=lakeside%20HOSP')).toBe(1);
    expect(await count('companyName=Lakeside_')).toBe(0);
    expect(await count(`createDate=${day(0)}&utcOffset=0`)).toBe(1);
    // The same moment seen from 14 hours east and west of UTC falls on other days, or not.
    expect(await count(`createDate=${day(14 * 60)}&utcOffset=840`)).toBe(1);
    expect(await count(`createDate=${day(0)}&utcOffset=840`)).toBe(day(0) === day(840) ? 1 : 0);
    const impossible = await admin.get('/server/listServer?start=1&size=10&createDate=2024-13-45');
    expect(failReply.parse(impossible.body).hhtMsg).toMatch(/date/i);
  });

  it('refuses a report with a wrong secret and the server list to non-platform users', async () => {
    const forged = await new TestClient(platform.url).post('/server/report', {
      serverId: crypto.randomUUID(),
      mac: 'x',
      os: 'x',
      secret: 'x'.repeat(43),
    });
    expect(forged.status).toBe(403);
    const customer = await signedIn(platform, 'customer1', 'customer123');
    expect((await customer.get('/server/listServer')).status).toBe(403);
  });
});
