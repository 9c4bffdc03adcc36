import { accounts, failReply } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import {
  backends,
  lastLinkTo,
  readOutbox,
  signedIn,
  startServer,
  TestClient,
  type TestServer,
} from './harness.js';

const DAY = 86_400_000;

describe.each(backends)('registration, activation and password recovery on %s', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let salespersonId: number;

  const newLicense = async (
    type: 0 | 1 = 0,
    state = 1,
    window = { begin: Date.now() - DAY, end: Date.now() + 30 * DAY },
  ) => {
    const reply = await admin.post('/platform/license/add', {
      companyName: 'Harbour College',
      saleName: String(salespersonId),
      state: String(state),
      type: String(type),
      validBeginTime: String(window.begin),
      validEndTime: String(window.end),
    });
    return accounts.licenseAdd.reply.parse(reply.body).dataObject.license;
  };

  const registration = (license: string, userName: string, email = `${userName}@harbour.example`) => ({
    companyName: 'Harbour College',
    saleName: String(salespersonId),
    license,
    userName,
    phone: '+86-21-5555-0199',
    email,
    userPass: md5Hex('harbour123'),
    secondPassword: md5Hex('harbour123'),
  });

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    admin = await signedIn(server, 'admin', 'admin123');
    expect(
      (
        await admin.post('/platform/saleMan/add', {
          work_number: 'S001',
          name: 'Lin Wei',
          companyName: 'East Sales Co',
          phone: '13800000001',
          jobState: '1',
        })
      ).body.hhtStatus,
    ).toBe('success');
    const sales = accounts.selectSale.reply.parse(
      (await new TestClient(server.url).get('/platform/license/selectSale')).body,
    );
    salespersonId = sales.listObject.find((s) => s.name === 'Lin Wei')!.id;
  });
  afterAll(() => server.stop());

  it('registers a company, mails the activation link, activates, and the new user signs in active', async () => {
    const license = await newLicense();
    const reply = await new TestClient(server.url).post(
      '/platform/register',
      registration(license, 'harbour'),
    );
    expect(reply.body).toMatchObject({ hhtStatus: 'success' });
    expect(String(reply.body.hhtMsg)).toContain('harbour@harbour.example');

    const before = await signedIn(server, 'harbour', 'harbour123');
    expect((await before.get('/platform/user/select/userType')).body).toMatchObject({
      userType: '2',
      state: 0,
    });
    expect((await before.get('/platform/user/user_list')).status).toBe(403);

    const link = lastLinkTo(server, 'harbour@harbour.example');
    expect(link.origin).toBe('http://panelfleet.test');
    expect(link.pathname).toBe('/activePage');
    const visitor = new TestClient(server.url);
    const activated = await visitor.get(`/platform/userActivation${link.search}`);
    expect(activated.body.hhtStatus).toBe('success');
    expect((await visitor.get(`/platform/userActivation${link.search}`)).body.hhtStatus).toBe('fail');
    expect((await before.get('/platform/user/select/userType')).body).toMatchObject({ state: 1 });

    const licenses = accounts.licenseList.reply.parse(
      (await admin.get('/platform/license/list?start=1&size=50')).body,
    );
    expect(licenses.listObject.find((l) => l.license === license)?.state).toBe(0);
  });

  it('refuses a used, a disabled, an expired, a server-type and an unknown license, changing nothing', async () => {
    const used = await newLicense();
    expect(
      (await new TestClient(server.url).post('/platform/register', registration(used, 'first1'))).body
        .hhtStatus,
    ).toBe('success');
    const cases: Array<[string, string]> = [
      [used, 'already been used'],
      [await newLicense(0, 2), 'not valid'],
      [await newLicense(0, 1, { begin: Date.now() - 10 * DAY, end: Date.now() - DAY }), 'valid period'],
      [await newLicense(1), 'not for registering'],
      ['PF-NOPE-NOPE-NOPE-NOPE', 'not valid'],
    ];
    for (const [license, message] of cases) {
      const reply = await new TestClient(server.url).post(
        '/platform/register',
        registration(license, 'second2'),
      );
      expect(failReply.parse(reply.body).hhtMsg).toContain(message);
    }
    const signIn = await new TestClient(server.url).post('/platform/login', {
      username: 'second2',
      password: md5Hex('harbour123'),
      tryCode: 'x',
    });
    expect(signIn.body.hhtStatus).toBe('fail');
  });

  it('refuses every rule of spec 1 section 5 with its message, in both languages', async () => {
    const license = await newLicense();
    const base = registration(license, 'rules1');
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ companyName: '' }, 'Please fill in every field', '请填写所有内容'],
      [{ saleName: '0' }, 'Please fill in every field', '请填写所有内容'],
      [{ phone: '12 34' }, 'Phone: digits', '电话'],
      [{ email: 'nope' }, 'e-mail address is not valid', '邮箱格式不正确'],
      [{ secondPassword: md5Hex('other123') }, 'two passwords differ', '两次输入的密码不一致'],
      [{ userName: 'admin' }, 'already taken', '已被使用'],
      [{ saleName: '99999' }, 'choose a salesperson', '请从列表中选择销售人员'],
    ];
    for (const [change, english, chinese] of cases) {
      expect(
        failReply.parse(
          (await new TestClient(server.url, 'en-US').post('/platform/register', { ...base, ...change })).body,
        ).hhtMsg,
      ).toContain(english);
      expect(
        failReply.parse(
          (await new TestClient(server.url, 'zh-CN').post('/platform/register', { ...base, ...change })).body,
        ).hhtMsg,
      ).toContain(chinese);
    }
    expect((await new TestClient(server.url).post('/platform/register', base)).body.hhtStatus).toBe(
      'success',
    );
  });

  it('resets a password by the mailed link once; the link is built from BASE_URL whatever the Host says', async () => {
    const victim = await signedIn(server, 'operator1', 'operator123');
    const forgot = await new TestClient(server.url).post(
      '/platform/forgetPassword',
      { email: 'operator1@example.com' },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    );
    expect(forgot.body.hhtStatus).toBe('success');
    const link = lastLinkTo(server, 'operator1@example.com');
    expect(link.origin).toBe('http://panelfleet.test');
    expect(link.pathname).toBe('/forgetpassword');
    const q = Object.fromEntries(link.searchParams);
    const client = new TestClient(server.url);
    expect((await client.get(`/platform/verificationEmail${link.search}`)).body.hhtStatus).toBe('success');
    const reset = await client.post('/platform/resetPassword', {
      ...q,
      password: md5Hex('newpass123'),
      secondPassword: md5Hex('newpass123'),
    });
    expect(reset.body.hhtStatus).toBe('success');
    expect((await victim.get('/platform/user/select')).body.status).toBe(518);
    const again = await client.post('/platform/resetPassword', {
      ...q,
      password: md5Hex('other1234'),
      secondPassword: md5Hex('other1234'),
    });
    expect(failReply.parse(again.body).hhtMsg).toContain('not valid or has expired');
    await signedIn(server, 'operator1', 'newpass123');
  });

  it('answers an unknown e-mail exactly as a known one and sends nothing', async () => {
    const before = readOutbox(server).length;
    const unknown = await new TestClient(server.url).post('/platform/forgetPassword', {
      email: 'nobody@nowhere.example',
    });
    const known = await new TestClient(server.url).post('/platform/forgetPassword', {
      email: 'manager1@example.com',
    });
    expect(unknown.body).toEqual(known.body);
    expect(readOutbox(server).length).toBe(before + 1);
  });

  it('refuses an expired reset link, another user’s link and a tampered uuid', async () => {
    await new TestClient(server.url).post('/platform/forgetPassword', { email: 'manager1@example.com' });
    const manager = Object.fromEntries(lastLinkTo(server, 'manager1@example.com').searchParams);
    await new TestClient(server.url).post('/platform/forgetPassword', { email: 'sales1@example.com' });
    const sales = Object.fromEntries(lastLinkTo(server, 'sales1@example.com').searchParams);
    const client = new TestClient(server.url);
    const pw = { password: md5Hex('taken123'), secondPassword: md5Hex('taken123') };
    expect(
      (await client.post('/platform/resetPassword', { ...manager, token: sales.token!, ...pw })).body
        .hhtStatus,
    ).toBe('fail');
    expect(
      (await client.post('/platform/resetPassword', { ...manager, uuid: sales.uuid!, ...pw })).body.hhtStatus,
    ).toBe('fail');
    server.clock.advance(31 * 60_000);
    expect((await client.post('/platform/resetPassword', { ...manager, ...pw })).body.hhtStatus).toBe('fail');
    await signedIn(server, 'manager1', 'manager123');
  });

  it('refuses an activation link of another user and a forged one', async () => {
    admin = await signedIn(server, 'admin', 'admin123'); // the clock moved past the idle limit above
    const license = await newLicense();
    await new TestClient(server.url).post('/platform/register', registration(license, 'act1'));
    const license2 = await newLicense();
    await new TestClient(server.url).post('/platform/register', registration(license2, 'act2'));
    const one = Object.fromEntries(lastLinkTo(server, 'act1@harbour.example').searchParams);
    const two = Object.fromEntries(lastLinkTo(server, 'act2@harbour.example').searchParams);
    const client = new TestClient(server.url);
    expect(
      (await client.get(`/platform/userActivation?${new URLSearchParams({ ...one, token: two.token! })}`))
        .body.hhtStatus,
    ).toBe('fail');
    expect(
      (await client.get(`/platform/userActivation?${new URLSearchParams({ ...one, token: 'A'.repeat(22) })}`))
        .body.hhtStatus,
    ).toBe('fail');
    expect((await client.get(`/platform/userActivation?${new URLSearchParams(two)}`)).body.hhtStatus).toBe(
      'success',
    );
  });
});
