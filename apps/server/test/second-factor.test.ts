import { failReply, identity } from '@panelfleet/contract';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { backends, signedIn, startServer, TestClient, type TestServer } from './harness.js';

const LIMITS = { perAccount: 5, perAddress: 1000, windowMs: 60_000 };
const STEP_MS = 30_000;

const message = (response: { body: Record<string, unknown> }) => failReply.parse(response.body).hhtMsg;

describe.each(backends)('second factor and sessions on %s', (backend) => {
  let server: TestServer;
  const codeAt = (secret: string, at = server.clock.time) =>
    new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });
  /** The next 30-second step, so that a code of it has not been used yet. */
  const nextStep = () => server.clock.advance(STEP_MS);

  async function password(userName: string, pass: string, client = new TestClient(server.url)) {
    await client.get('/kaptcha/defaultKaptcha');
    const tryCode = await server.captchaAnswer(client);
    const response = await client.post('/platform/login', {
      username: userName,
      password: md5Hex(pass),
      tryCode,
    });
    return { client, response };
  }

  async function enrol(client: TestClient) {
    const start = identity.startSecondFactor.reply.parse(
      (await client.post('/platform/personal/secondFactor/start')).body,
    );
    expect(start.dataObject.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(start.dataObject.otpauthUrl).toContain(`secret=${start.dataObject.secret}`);
    const secret = start.dataObject.secret;
    const confirm = await client.post('/platform/personal/secondFactor/confirm', { code: codeAt(secret) });
    const codes = identity.confirmSecondFactor.reply.parse(confirm.body).dataObject.recoveryCodes;
    return { secret, codes };
  }

  const actions = async (since: number) =>
    (
      await server.app.db.kysely
        .selectFrom('operation_logs')
        .select(['action', 'user_name', 'detail'])
        .where('created_at', '>=', since)
        .orderBy('id')
        .execute()
    ).map((r) => ({ action: r.action, user: r.user_name, detail: String(r.detail) }));

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      {
        throttle: LIMITS,
        users: [
          { userName: 'customer1', password: 'customer123', userType: '2', activated: 1 },
          { userName: 'sales1', password: 'sales123', userType: '1' },
          { userName: 'op1', password: 'operator123', userType: '4' },
          { userName: 'op2', password: 'operator123', userType: '4' },
          { userName: 'op3', password: 'operator123', userType: '4' },
          { userName: 'op4', password: 'operator123', userType: '4' },
          { userName: 'op5', password: 'operator123', userType: '4' },
        ],
      },
    );
  });
  afterAll(() => server.stop());

  it('enrols, then asks for the code after the password; a wrong or replayed code is refused, the right one signs in', async () => {
    const since = server.clock.time;
    const { secret, codes } = await enrol(await signedIn(server, 'op1', 'operator123'));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // The secret is sealed at rest and the recovery codes kept hashed.
    const stored = await server.app.db.kysely
      .selectFrom('second_factors')
      .selectAll()
      .where('user_id', '=', server.accounts.userIds.op1!)
      .executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(secret);
    const hashes = await server.app.db.kysely
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', server.accounts.userIds.op1!)
      .execute();
    expect(hashes.map((h) => h.code_hash)).not.toContain(codes[0]);

    nextStep();
    const first = await password('op1', 'operator123');
    expect(identity.signInCode.reply.shape.nextStep.parse(first.response.body.nextStep)).toBe('secondFactor');
    expect(first.client.cookie('pf_session')).toBeUndefined();
    expect((await first.client.get('/platform/user/select/userType')).body.status).toBe(518);

    const wrong = await first.client.post('/platform/login/secondFactor', {
      code: codeAt(secret, server.clock.time + 10 * STEP_MS),
    });
    expect(message(wrong)).toBe('The code is wrong or was already used');
    const right = await first.client.post('/platform/login/secondFactor', { code: codeAt(secret) });
    expect(right.body).toMatchObject({ hhtStatus: 'success', nextStep: 'done' });
    expect((await first.client.get('/platform/user/select/userType')).body).toMatchObject({
      userName: 'op1',
    });

    // The same code again, within its window, in another sign-in: refused.
    const again = await password('op1', 'operator123');
    const replay = await again.client.post('/platform/login/secondFactor', { code: codeAt(secret) });
    expect(message(replay)).toBe('The code is wrong or was already used');
    expect(again.client.cookie('pf_session')).toBeUndefined();

    const log = await actions(since);
    expect(log.map((r) => r.action)).toEqual(
      expect.arrayContaining(['secondFactor.enrol', 'signIn', 'signInRefused']),
    );
    expect(log.find((r) => r.action === 'signIn' && r.detail.includes('password+totp'))).toBeTruthy();
    expect(log.find((r) => r.action === 'signInRefused' && r.detail.includes('wrongCode'))).toBeTruthy();
  });

  it('takes a recovery code once', async () => {
    nextStep();
    const { codes } = await enrol(await signedIn(server, 'op2', 'operator123'));
    const one = await password('op2', 'operator123');
    const used = await one.client.post('/platform/login/secondFactor', { code: codes[3]!.toUpperCase() });
    expect(used.body, String(used.body.hhtMsg)).toMatchObject({ hhtStatus: 'success', nextStep: 'done' });
    const sessions = identity.listSessions.reply.parse(
      (await one.client.get('/platform/personal/sessions')).body,
    );
    expect(sessions.listObject.find((s) => s.current === 1)?.method).toBe('password+recovery');
    const state = identity.getSecondFactor.reply.parse(
      (await one.client.get('/platform/personal/secondFactor')).body,
    );
    expect(state.dataObject).toMatchObject({ enrolled: 1, recoveryLeft: 9 });

    const two = await password('op2', 'operator123');
    expect(message(await two.client.post('/platform/login/secondFactor', { code: codes[3]! }))).toBe(
      'The code is wrong or was already used',
    );
  });

  it('counts wrong codes with the sign-in throttle, also when they arrive at once', async () => {
    server.clock.advance(LIMITS.windowMs + 1);
    const { secret } = await enrol(await signedIn(server, 'op3', 'operator123'));
    nextStep();
    const pending = await password('op3', 'operator123');
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        pending.client.post('/platform/login/secondFactor', { code: String(100000 + i) }),
      ),
    );
    const wrong = replies.filter(
      (r) => r.status === 200 && message(r) === 'The code is wrong or was already used',
    );
    const throttled = replies.filter((r) => r.status === 429);
    expect(wrong.length).toBeLessThanOrEqual(LIMITS.perAccount);
    expect(wrong.length + throttled.length).toBe(12);
    // Even the right code waits the window out now.
    expect((await pending.client.post('/platform/login/secondFactor', { code: codeAt(secret) })).status).toBe(
      429,
    );
  });

  it('leads a user whose organisation requires it to enrolment after the password', async () => {
    const company = await signedIn(server, 'customer1', 'customer123');
    expect(
      (await company.post('/platform/organisation/secondFactor', { required: '1' })).body.hhtStatus,
    ).toBe('success');
    expect(
      identity.getSecondFactorPolicy.reply.parse(
        (await company.get('/platform/organisation/secondFactor')).body,
      ).dataObject.required,
    ).toBe(1);

    const first = await password('op4', 'operator123');
    expect(first.response.body.nextStep).toBe('enrol');
    expect(first.client.cookie('pf_session')).toBeUndefined();
    const start = identity.signInEnrolStart.reply.parse(
      (await first.client.post('/platform/login/secondFactor/enrol')).body,
    );
    const confirm = identity.signInEnrolConfirm.reply.parse(
      (
        await first.client.post('/platform/login/secondFactor/confirm', {
          code: codeAt(start.dataObject.secret),
        })
      ).body,
    );
    expect(confirm.recoveryCodes).toHaveLength(10);
    expect((await first.client.get('/platform/user/select/userType')).body).toMatchObject({
      userName: 'op4',
    });
    // Required: it cannot be turned off.
    nextStep();
    const off = await first.client.post('/platform/personal/secondFactor/remove', {
      code: codeAt(start.dataObject.secret),
    });
    expect(off.status).toBe(403);

    expect(
      (await company.post('/platform/organisation/secondFactor', { required: '0' })).body.hhtStatus,
    ).toBe('success');
  });

  it('lets an administrator reset a user’s second factor (logged), ending the user’s sessions', async () => {
    const since = server.clock.time;
    nextStep();
    const user = await signedIn(server, 'op5', 'operator123');
    await enrol(user);
    const company = await signedIn(server, 'customer1', 'customer123');
    const reset = await company.post('/platform/user/resetSecondFactor', {
      userId: String(server.accounts.userIds.op5),
    });
    expect(reset.body.hhtStatus).toBe('success');
    expect((await user.get('/platform/user/select/userType')).body.status).toBe(518);
    const again = await password('op5', 'operator123');
    expect(again.response.body.nextStep).toBe('done');
    // Another organisation's user is not found.
    const sales = await signedIn(server, 'sales1', 'sales123');
    expect(
      (await sales.post('/platform/user/resetSecondFactor', { userId: String(server.accounts.userIds.op5) }))
        .status,
    ).toBe(404);
    const log = await actions(since);
    expect(log).toContainEqual(expect.objectContaining({ action: 'secondFactor.reset', user: 'customer1' }));
  });

  it('lets a distributor end its customer account’s sessions and reset its second factor (logged)', async () => {
    const since = server.clock.time;
    const customer = await signedIn(server, 'customer1', 'customer123');
    const sales = await signedIn(server, 'sales1', 'sales123');
    const customerId = String(server.accounts.userIds.customer1);
    expect((await sales.post('/platform/user/endSessions', { userId: customerId })).body.hhtStatus).toBe(
      'success',
    );
    expect((await customer.get('/platform/user/select/userType')).body.status).toBe(518);
    const again = await signedIn(server, 'customer1', 'customer123');
    expect(
      (await sales.post('/platform/user/resetSecondFactor', { userId: customerId })).body.hhtStatus,
    ).toBe('success');
    expect((await again.get('/platform/user/select/userType')).body.status).toBe(518);
    // A company's own console users are its own to manage, not the distributor's.
    const company = await signedIn(server, 'customer1', 'customer123');
    expect((await company.post('/platform/user/endSessions', { userId: customerId })).status).toBe(404);
    const log = await actions(since);
    expect(log).toContainEqual(expect.objectContaining({ action: 'session.end', user: 'sales1' }));
    expect(log).toContainEqual(expect.objectContaining({ action: 'secondFactor.reset', user: 'sales1' }));
    // The next test counts the log rows from its own start.
    server.clock.advance(1000);
  });

  it('lists the user’s sessions and ends one or all others at once; an administrator ends all of a user’s', async () => {
    const since = server.clock.time;
    const sessionsOf = async (client: TestClient) =>
      identity.listSessions.reply.parse((await client.get('/platform/personal/sessions')).body).listObject;
    const a = await signedIn(server, 'op5', 'operator123');
    const b = new TestClient(server.url);
    await password('op5', 'operator123', b);
    const c = new TestClient(server.url);
    await password('op5', 'operator123', c);
    const listed = await sessionsOf(a);
    expect(listed.length).toBeGreaterThanOrEqual(3);
    expect(listed.filter((s) => s.current === 1)).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      method: 'password',
      browser: expect.any(String),
      ip: expect.any(String),
    });

    const bRef = (await sessionsOf(b)).find((s) => s.current === 1)!.ref;
    expect((await a.post('/platform/personal/sessions/end', { ref: bRef })).body.hhtStatus).toBe('success');
    expect((await b.get('/platform/user/select/userType')).body.status).toBe(518);
    expect((await a.post('/platform/personal/sessions/end', { ref: bRef })).status).toBe(404);

    expect((await a.post('/platform/personal/sessions/endOthers')).body.hhtStatus).toBe('success');
    expect((await c.get('/platform/user/select/userType')).body.status).toBe(518);
    expect((await sessionsOf(a)).map((s) => s.current)).toEqual([1]);

    const company = await signedIn(server, 'customer1', 'customer123');
    expect(
      (await company.post('/platform/user/endSessions', { userId: String(server.accounts.userIds.op5) })).body
        .hhtStatus,
    ).toBe('success');
    expect((await a.get('/platform/user/select/userType')).body.status).toBe(518);

    const log = await actions(since);
    expect(log.filter((r) => r.action === 'session.end')).toHaveLength(3);
  });

  it('logs refused sign-ins with their reason, also for a user name nobody has', async () => {
    const since = server.clock.time;
    server.clock.advance(LIMITS.windowMs + 1);
    await password('op5', 'wrong-password');
    await password('nobody-here', 'whatever1');
    const log = await actions(since);
    expect(log).toContainEqual(
      expect.objectContaining({
        action: 'signInRefused',
        user: 'op5',
        detail: expect.stringContaining('wrongPassword'),
      }),
    );
    expect(log).toContainEqual(
      expect.objectContaining({
        action: 'signInRefused',
        user: 'nobody-here',
        detail: expect.stringContaining('unknownUser'),
      }),
    );
  });
});
