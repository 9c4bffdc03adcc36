import { auth, failReply } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { backends, startServer, TestClient, type TestServer } from './harness.js';

async function signIn(
  server: TestServer,
  client: TestClient,
  userName: string,
  password: string,
  captcha?: string,
) {
  await client.get('/kaptcha/defaultKaptcha?date=1');
  const tryCode = captcha ?? (await server.captchaAnswer(client));
  return client.post('/platform/login', { username: userName, password: md5Hex(password), tryCode });
}

const expectFail = (response: { body: Record<string, unknown> }, message: string | RegExp) => {
  const reply = failReply.parse(response.body);
  expect(reply.hhtMsg).toMatch(message);
};

describe.each(backends)('sign-in and session on %s', (backend) => {
  let server: TestServer;
  const countSessions = async () =>
    Number(
      (
        await server.app.db.kysely
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 },
        users: [
          { userName: 'operator1', password: 'operator123', userType: '4', programRole: 2 },
          { userName: 'disabled1', password: 'disabled123', userType: '4', enabled: 0 },
          { userName: 'future1', password: 'future123', userType: '4', validBegin: Date.now() + 86_400_000 },
          { userName: 'expired1', password: 'expired123', userType: '4', validEnd: Date.now() - 1000 },
          { userName: 'newcustomer', password: 'customer123', userType: '2', activated: 0 },
          { userName: 'window1', password: 'window123', userType: '4' },
          { userName: 'window2', password: 'window123', userType: '4' },
          { userName: 'goner1', password: 'goner123', userType: '4' },
        ],
      },
    );
  });
  afterAll(() => server.stop());

  it('signs in with the right captcha and password, then knows the user', async () => {
    const client = new TestClient(server.url);
    const login = await signIn(server, client, 'operator1', 'operator123');
    expect(login.status).toBe(200);
    expect(auth.login.reply.parse(login.body)).toMatchObject({ hhtStatus: 'success', program_role: '2' });
    const setCookie = login.headers.getSetCookie().find((c) => c.startsWith('pf_session='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);

    const who = auth.userType.reply.parse((await client.get('/platform/user/select/userType')).body);
    expect(who).toMatchObject({ userType: '4', userName: 'operator1', state: 1 });
    const me = auth.selectUser.reply.parse((await client.get('/platform/user/select')).body);
    expect(me.dataObject).toMatchObject({
      userName: 'operator1',
      companyName: 'Riverside School',
      email: 'operator1@example.com',
    });
  });

  it('reports an inactive type-2 user with state 0', async () => {
    const client = new TestClient(server.url);
    expect((await signIn(server, client, 'newcustomer', 'customer123')).body.hhtStatus).toBe('success');
    const who = auth.userType.reply.parse((await client.get('/platform/user/select/userType')).body);
    expect(who).toMatchObject({ userType: '2', state: 0 });
  });

  it('issues a new session id at each sign-in and ends the old one', async () => {
    const client = new TestClient(server.url);
    await signIn(server, client, 'operator1', 'operator123');
    const first = client.cookie('pf_session')!;
    await signIn(server, client, 'operator1', 'operator123');
    const second = client.cookie('pf_session')!;
    expect(second).not.toBe(first);
    const stale = new TestClient(server.url);
    stale.setCookie('pf_session', first);
    const response = await stale.get('/platform/user/select/userType');
    expect(response.status).toBe(401);
    expect(response.body.status).toBe(518);
  });

  it('signs out: the session no longer works', async () => {
    const client = new TestClient(server.url);
    await signIn(server, client, 'operator1', 'operator123');
    const token = client.cookie('pf_session')!;
    expect((await client.post('/platform/loginOut')).body.hhtStatus).toBe('success');
    const replay = new TestClient(server.url);
    replay.setCookie('pf_session', token);
    expect((await replay.get('/platform/user/select/userType')).body.status).toBe(518);
  });

  it('answers the 518 marker without a cookie, with a forged cookie, and after idle or absolute expiry', async () => {
    const none = await new TestClient(server.url).get('/platform/user/select');
    expect(none.status).toBe(401);
    expect(failReply.parse(none.body)).toMatchObject({ status: 518 });

    const forged = new TestClient(server.url);
    forged.setCookie('pf_session', 'x'.repeat(43));
    expect((await forged.get('/platform/user/select')).body.status).toBe(518);

    const idle = new TestClient(server.url);
    await signIn(server, idle, 'operator1', 'operator123');
    server.clock.advance(31 * 60_000);
    expect((await idle.get('/platform/user/select')).body.status).toBe(518);

    const busy = new TestClient(server.url);
    await signIn(server, busy, 'operator1', 'operator123');
    for (let hour = 0; hour < 12; hour++) {
      server.clock.advance(29 * 60_000);
      expect((await busy.get('/platform/user/select')).body.hhtStatus).toBe('success');
      server.clock.advance(29 * 60_000);
      expect((await busy.get('/platform/user/select')).body.hhtStatus).toBe('success');
    }
    server.clock.advance(25 * 60_000);
    expect((await busy.get('/platform/user/select')).body.status).toBe(518);
  });

  it('ends a session at once when its user leaves the valid window, is disabled or is deleted', async () => {
    const db = server.app.db.kysely;
    const setUser = (
      userName: string,
      values: { valid_begin?: number | null; valid_end?: number | null; enabled?: number },
    ) => db.updateTable('users').set(values).where('user_name', '=', userName).execute();
    const expectEnded = async (client: TestClient) => {
      const response = await client.get('/platform/user/select/userType');
      expect(response.status).toBe(401);
      expect(failReply.parse(response.body)).toMatchObject({ status: 518 });
      // Ended for good, not just refused once.
      expect((await client.get('/platform/user/select/userType')).body.status).toBe(518);
    };

    await setUser('window1', { valid_end: server.clock.now() + 5 * 60_000 });
    const windowed = new TestClient(server.url);
    expect((await signIn(server, windowed, 'window1', 'window123')).body.hhtStatus).toBe('success');
    expect((await windowed.get('/platform/user/select/userType')).body.hhtStatus).toBe('success');
    server.clock.advance(5 * 60_000 + 1);
    await expectEnded(windowed);

    const moved = new TestClient(server.url);
    expect((await signIn(server, moved, 'window2', 'window123')).body.hhtStatus).toBe('success');
    await setUser('window2', { valid_begin: server.clock.now() + 86_400_000 });
    await expectEnded(moved);

    const disabled = new TestClient(server.url);
    expect((await signIn(server, disabled, 'goner1', 'goner123')).body.hhtStatus).toBe('success');
    await setUser('goner1', { enabled: 0 });
    await expectEnded(disabled);
    await setUser('goner1', { enabled: 1 });

    const deleted = new TestClient(server.url);
    expect((await signIn(server, deleted, 'goner1', 'goner123')).body.hhtStatus).toBe('success');
    await db.deleteFrom('users').where('user_name', '=', 'goner1').execute();
    await expectEnded(deleted);
  });

  it('refuses empty fields with the message for each, in the caller’s language', async () => {
    const client = new TestClient(server.url);
    expectFail(
      await client.post('/platform/login', { username: '', password: md5Hex('x'), tryCode: 'abcd' }),
      'Please enter the user name',
    );
    expectFail(
      await client.post('/platform/login', { username: 'operator1', password: '', tryCode: 'abcd' }),
      'Please enter the password',
    );
    expectFail(
      await client.post('/platform/login', { username: 'operator1', password: md5Hex('x'), tryCode: ' ' }),
      'Please enter the verification code',
    );
    const withoutCaptcha = await client.post('/platform/login', {
      username: 'operator1',
      password: md5Hex('operator123'),
    });
    expect(withoutCaptcha.status).toBe(400);
    expectFail(withoutCaptcha, 'Please enter the verification code');
    const config = auth.getRuntimeConfig.reply.parse((await client.get('/platform/config/runtime')).body);
    expect(config.dataObject.captcha).toBe(true);
    client.language = 'zh-CN';
    expectFail(
      await client.post('/platform/login', { username: '', password: md5Hex('x'), tryCode: 'abcd' }),
      '请输入用户名',
    );
  });

  it('refuses over-long fields and a password that is not an MD5 value', async () => {
    const client = new TestClient(server.url);
    const long = await client.post('/platform/login', {
      username: 'u'.repeat(65),
      password: md5Hex('x'),
      tryCode: 'abcd',
    });
    expect(long.status).toBe(400);
    expectFail(long, 'too long');
    expectFail(
      await client.post('/platform/login', {
        username: 'operator1',
        password: 'operator123',
        tryCode: 'abcd',
      }),
      'expected form',
    );
    expectFail(
      await client.post('/platform/login', {
        username: 'operator1',
        password: md5Hex('x'),
        tryCode: 'abcde',
      }),
      'code is wrong',
    );
  });

  it('refuses malformed bodies without a 500', async () => {
    const client = new TestClient(server.url);
    const broken = await client.request('POST', '/platform/login', {
      raw: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.hhtStatus).toBe('fail');
    const wrongTypes = await client.request('POST', '/platform/login', {
      json: { username: ['a'], password: 5, tryCode: null },
    });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.hhtStatus).toBe('fail');
    const odd = await client.request('POST', '/platform/login', {
      raw: 'hello',
      headers: { 'content-type': 'text/xml' },
    });
    expect(odd.status).toBeLessThan(500);
    expect(odd.body.hhtStatus).toBe('fail');
  });

  it('refuses a wrong captcha, a reused captcha, a captcha from another browser and an expired one', async () => {
    const client = new TestClient(server.url);
    expectFail(await signIn(server, client, 'operator1', 'operator123', 'zzzz'), 'code is wrong');

    await client.get('/kaptcha/defaultKaptcha');
    const answer = await server.captchaAnswer(client);
    const form = { username: 'operator1', password: md5Hex('wrong999'), tryCode: answer };
    expectFail(await client.post('/platform/login', form), 'Wrong user name or password');
    expectFail(await client.post('/platform/login', { ...form, password: md5Hex('operator123') }), 'expired');

    const other = new TestClient(server.url);
    await other.get('/kaptcha/defaultKaptcha');
    const stolen = await server.captchaAnswer(other);
    const thief = new TestClient(server.url);
    await thief.get('/kaptcha/defaultKaptcha');
    const attempt = await thief.post('/platform/login', {
      username: 'operator1',
      password: md5Hex('operator123'),
      tryCode: stolen === (await server.captchaAnswer(thief)) ? 'zzzz' : stolen,
    });
    expect(attempt.body.hhtStatus).toBe('fail');

    await client.get('/kaptcha/defaultKaptcha');
    const late = await server.captchaAnswer(client);
    server.clock.advance(6 * 60_000);
    expectFail(
      await client.post('/platform/login', {
        username: 'operator1',
        password: md5Hex('operator123'),
        tryCode: late,
      }),
      'expired',
    );
  });

  it('refuses a wrong password, an unknown user, a disabled user and users outside their valid window', async () => {
    const before = await countSessions();
    expectFail(
      await signIn(server, new TestClient(server.url), 'operator1', 'nope1234'),
      'Wrong user name or password',
    );
    expectFail(
      await signIn(server, new TestClient(server.url), 'ghost', 'ghost123'),
      'Wrong user name or password',
    );
    expectFail(await signIn(server, new TestClient(server.url), 'disabled1', 'disabled123'), 'disabled');
    expectFail(
      await signIn(server, new TestClient(server.url), 'future1', 'future123'),
      'not valid at this time',
    );
    expectFail(
      await signIn(server, new TestClient(server.url), 'expired1', 'expired123'),
      'not valid at this time',
    );
    expect(await countSessions()).toBe(before);
  });

  it('refuses writes from a foreign Origin and changes nothing', async () => {
    const client = new TestClient(server.url);
    await client.get('/kaptcha/defaultKaptcha');
    const answer = await server.captchaAnswer(client);
    const form = { username: 'operator1', password: md5Hex('operator123'), tryCode: answer };
    const foreign = await client.post('/platform/login', form, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expectFail(foreign, 'another site');
    const crossSite = await client.post('/platform/login', form, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(client.cookie('pf_session')).toBeUndefined();
    const own = await client.post('/platform/login', form, { origin: 'http://panelfleet.test' });
    expect(own.body.hhtStatus).toBe('success');
  });

  it('serves the OpenAPI document generated from the contract', async () => {
    const doc = (await new TestClient(server.url).get('/api-docs')).body as {
      openapi: string;
      paths: Record<string, object>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/platform/login',
        '/kaptcha/defaultKaptcha',
        '/platform/user/select/userType',
      ]),
    );
  });

  it('answers unknown API paths with a JSON 404 in the envelope', async () => {
    const response = await new TestClient(server.url).get('/platform/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body.hhtStatus).toBe('fail');
  });
});

describe.each(backends)('sign-in throttling on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 3, perAddress: 6, windowMs: 15 * 60_000 } },
    );
  });
  afterAll(() => server.stop());

  it('blocks an account after repeated failures with a clear message, then lets it in after the window', async () => {
    for (let i = 0; i < 3; i++)
      expectFail(await signIn(server, new TestClient(server.url), 'operator1', 'bad12345'), 'Wrong');
    const blocked = await signIn(server, new TestClient(server.url), 'operator1', 'operator123');
    expect(blocked.status).toBe(429);
    expectFail(blocked, /try again in 15 minutes/);
    // The message's key and variables travel with it, so the console can show it in another language.
    expect(blocked.body).toMatchObject({ hhtMsgKey: 'login.throttled', hhtMsgVars: { minutes: 15 } });
    server.clock.advance(15 * 60_000 + 1);
    expect(
      (await signIn(server, new TestClient(server.url), 'operator1', 'operator123')).body.hhtStatus,
    ).toBe('success');
  });

  it('blocks an address that fails across many accounts', async () => {
    for (let i = 0; i < 6; i++) await signIn(server, new TestClient(server.url), `nobody${i}`, 'bad12345');
    const blocked = await signIn(server, new TestClient(server.url), 'manager1', 'manager123');
    expect(blocked.status).toBe(429);
  });
});

describe.each(backends)('special-user deployment on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend, { ROLE_FLAG: '1' });
  });
  afterAll(() => server.stop());

  it('lets only type-1 users sign in', async () => {
    expectFail(
      await signIn(server, new TestClient(server.url), 'operator1', 'operator123'),
      'may not sign in',
    );
    expect((await signIn(server, new TestClient(server.url), 'sales1', 'sales123')).body.hhtStatus).toBe(
      'success',
    );
    const config = auth.getRuntimeConfig.reply.parse(
      (await new TestClient(server.url).get('/platform/config/runtime')).body,
    );
    expect(config.dataObject.roleFlag).toBe(1);
  });
});

describe.each(backends)('captcha switched off on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend, { CAPTCHA: 'off' });
  });
  afterAll(() => server.stop());

  it('signs in without a captcha', async () => {
    const client = new TestClient(server.url);
    const response = await client.post('/platform/login', {
      username: 'admin',
      password: md5Hex('admin123'),
      tryCode: 'x',
    });
    expect(response.body.hhtStatus).toBe('success');
  });

  it('tells the console that sign-in has no captcha field, and signs in without one', async () => {
    const config = auth.getRuntimeConfig.reply.parse(
      (await new TestClient(server.url).get('/platform/config/runtime')).body,
    );
    expect(config.dataObject.captcha).toBe(false);
    const response = await new TestClient(server.url).post('/platform/login', {
      username: 'admin',
      password: md5Hex('admin123'),
    });
    expect(response.body.hhtStatus).toBe('success');
  });
});
