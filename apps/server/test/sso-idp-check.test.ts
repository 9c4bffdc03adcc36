import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../src/security/passwords.js';
import { backends, signedIn, startServer, TestClient, type TestServer } from './harness.js';
import { throughProvider, TestIdp, type IdpAccount } from './oidc-idp.js';

// Issue 29: sessions and API tokens of a user disabled in the identity provider end at the next
// check (modules/sso/idp-check.ts), with the in-process provider on both engines.

const CALLBACK = 'http://panelfleet.test/platform/sso/callback';
const client = { clientId: 'panelfleet', clientSecret: 'very-secret-client-secret', redirectUri: CALLBACK };
const CHECK_MINUTES = 15;
const MAX_MINUTES = 60;
const DAY = 86_400_000;

const teacher = (sub: string): IdpAccount => ({
  sub,
  email: `${sub}@school.test`,
  email_verified: true,
  groups: ['teachers'],
});

describe.each(backends)('the check of the identity provider (%s)', (backend) => {
  let server: TestServer;
  let idp: TestIdp;
  let admin: TestClient;

  beforeAll(async () => {
    idp = await TestIdp.start(client);
    server = await startServer(backend, {
      CAPTCHA: 'off',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      SSO_CHECK_MINUTES: String(CHECK_MINUTES),
      SSO_SESSION_MAX_MINUTES: String(MAX_MINUTES),
    });
    admin = await signedIn(server, 'customer1', 'customer123');
    const saved = await admin.post('/platform/sso/settings', {
      enabled: '1',
      displayName: 'School IdP',
      issuer: idp.issuer,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      emailDomains: 'school.test,example.com',
      mappings: JSON.stringify([{ claim: 'groups', value: 'teachers', userType: '4', programRole: 1 }]),
      jit: '1',
      ssoOnly: '0',
    });
    expect(saved.body.hhtStatus).toBe('success');
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await idp.stop();
  });

  /** Signs `account` in through the provider; gives its browser and an API token it made. */
  async function signIn(account: IdpAccount) {
    idp.account = account;
    const browser = new TestClient(server.url, 'en-US');
    const found = await browser.get(`/platform/sso/find?name=${encodeURIComponent(account.email)}`);
    const started = await browser.get(`/platform/sso/start?provider=${String(found.body.providerId)}`);
    expect(started.status).toBe(302);
    expect(new URL(started.headers.get('location')!).searchParams.get('scope')).toContain('offline_access');
    const back = await throughProvider(started.headers.get('location')!, CALLBACK);
    const landed = await browser.get(back.slice('http://panelfleet.test'.length));
    expect(landed.headers.get('location')).toBe('/home');
    const made = await browser.post('/platform/apiToken/create', { name: 'ci', scope: 'read' });
    expect(made.body.hhtStatus).toBe('success');
    const token = (made.body.dataObject as { token: string }).token;
    return { browser, token };
  }

  /** As `signIn`, through a provider that gives no refresh token this time (as Google does). */
  async function signInWithoutRefreshToken(account: IdpAccount) {
    idp.refreshTokens = false;
    try {
      return await signIn(account);
    } finally {
      idp.refreshTokens = true;
    }
  }

  const signedInStill = async (browser: TestClient) =>
    (await browser.get('/platform/user/select/userType')).body.hhtStatus === 'success';
  const tokenWorks = async (token: string) =>
    (
      await new TestClient(server.url).get('/platform/device/list', {
        authorization: `Bearer ${token}`,
      })
    ).body.hhtStatus === 'success';
  const nextCheck = () => {
    server.clock.advance(CHECK_MINUTES * 60_000 + 1);
    return server.app.sso.checkProviders();
  };

  it('ends the sessions and tokens of a disabled or revoked user and keeps a healthy one', async () => {
    const ann = await signIn(teacher('ann'));
    const bob = await signIn(teacher('bob'));
    const cat = await signIn(teacher('cat'));
    for (const user of [ann, bob, cat]) {
      expect(await signedInStill(user.browser)).toBe(true);
      expect(await tokenWorks(user.token)).toBe(true);
    }
    idp.disable('bob');
    await idp.revokeGrants('cat');

    expect(await nextCheck()).toMatchObject({ kept: 1, ended: 2, failed: 0 });
    expect(await signedInStill(ann.browser)).toBe(true);
    expect(await tokenWorks(ann.token)).toBe(true);
    for (const user of [bob, cat]) {
      const reply = await user.browser.get('/platform/user/select/userType');
      expect(reply.body).toMatchObject({ hhtStatus: 'fail', status: 518 });
      expect(await tokenWorks(user.token)).toBe(false);
    }
    const log = await admin.post('/platform/operationLog/list', { pageNum: '1', pageSize: '50' });
    const ended = (log.body.listObject as Array<{ userName: string; operationType: string; content: string }>)
      .filter((row) => row.operationType === 'sso.accessEnded')
      .map((row) => `${row.userName}: ${row.content}`);
    expect(ended.sort()).toEqual(
      ['bob', 'cat'].map(
        (name) =>
          `${name}@school.test: The identity provider School IdP ended this user's access (grant request is invalid); ` +
          'sessions ended: 1, API tokens revoked: 1; the user must sign in through it again',
      ),
    );
    const zh = new TestClient(server.url, 'zh-CN');
    zh.setCookie('pf_session', admin.cookie('pf_session')!);
    const logZh = await zh.post('/platform/operationLog/list', { pageNum: '1', pageSize: '50' });
    expect(logZh.text).toContain('身份提供方 School IdP 已结束该用户的访问');

    // Ended once: the next check does not count them again; a new sign-in through the provider
    // (cat's account is still there) brings the user back and is checked again.
    expect(await nextCheck()).toMatchObject({ kept: 1, ended: 0 });
    const catAgain = await signIn(teacher('cat'));
    expect(await nextCheck()).toMatchObject({ kept: 2, ended: 0 });
    expect(await signedInStill(catAgain.browser)).toBe(true);
  });

  it('ends nothing while the provider is down, and checks again when it is back', async () => {
    const dan = await signIn(teacher('dan'));
    idp.down = true;
    try {
      const summary = await nextCheck();
      expect(summary.ended).toBe(0);
      expect(summary.failed).toBeGreaterThanOrEqual(1);
      expect(await signedInStill(dan.browser)).toBe(true);
      expect(await tokenWorks(dan.token)).toBe(true);
    } finally {
      idp.down = false;
    }
    const back = await server.app.sso.checkProviders();
    expect(back).toMatchObject({ ended: 0, failed: 0 });
    expect(back.kept).toBeGreaterThanOrEqual(1);
    expect(await signedInStill(dan.browser)).toBe(true);
  });

  it('limits a session through a provider that gives no refresh token to its maximum', async () => {
    const eve = await signInWithoutRefreshToken(teacher('eve'));
    const fay = await signIn(teacher('fay'));
    // Both in use (the idle timeout is shorter than the maximum) up to 52 minutes after the sign-in.
    for (let step = 0; step < 4; step++) {
      server.clock.advance(13 * 60_000);
      expect((await server.app.sso.checkProviders()).expired).toBe(0);
      expect(await signedInStill(eve.browser)).toBe(true);
      expect(await signedInStill(fay.browser)).toBe(true);
    }
    // Past the maximum: eve signs in through the provider again; fay's provider still answers for her.
    server.clock.advance(10 * 60_000);
    expect((await server.app.sso.checkProviders()).expired).toBe(1);
    expect((await eve.browser.get('/platform/user/select/userType')).body).toMatchObject({ status: 518 });
    expect(await signedInStill(fay.browser)).toBe(true);
  });

  it('refuses the password of a linked local user the provider ended until a sign-in through it', async () => {
    const withPassword = () =>
      new TestClient(server.url, 'en-US').post('/platform/login', {
        username: 'operator1',
        password: md5Hex('operator123'),
      });
    const op: IdpAccount = { sub: 'op', email: 'operator1@example.com', email_verified: true, groups: [] };
    const linked = await signIn(op);
    expect((await linked.browser.get('/platform/user/select/userType')).body.userName).toBe('operator1');
    expect((await withPassword()).body.hhtStatus).toBe('success');
    await idp.revokeGrants('op');
    expect(await nextCheck()).toMatchObject({ ended: 1 });
    expect((await withPassword()).body).toMatchObject({
      hhtStatus: 'fail',
      hhtMsg: 'This organisation signs in with its identity provider; use "Sign in with your organisation"',
    });
    expect(await signedInStill((await signIn(op)).browser)).toBe(true);
    expect((await withPassword()).body.hhtStatus).toBe('success');
  });

  it('revokes the API tokens of a user the provider cannot be asked about, a week after the last sign-in through it', async () => {
    let gus = await signInWithoutRefreshToken(teacher('gus'));
    // Six days on, the token still works (the sessions ended long ago).
    server.clock.advance(6 * DAY);
    expect((await server.app.sso.checkProviders()).tokensExpired).toBe(0);
    expect(await tokenWorks(gus.token)).toBe(true);
    // Past the week without a sign-in through the provider: revoked, and logged (eve's too: she
    // signed in through that provider, without a refresh token, an hour before gus).
    server.clock.advance(DAY + 1);
    expect((await server.app.sso.checkProviders()).tokensExpired).toBe(2);
    expect(await tokenWorks(gus.token)).toBe(false);
    expect((await server.app.sso.checkProviders()).tokensExpired).toBe(0);
    // The administrator's session did not last the week either.
    admin = await signedIn(server, 'customer1', 'customer123');
    const log = await admin.post('/platform/operationLog/list', { pageNum: '1', pageSize: '50' });
    const rows = (log.body.listObject as Array<{ userName: string; operationType: string; content: string }>)
      .filter((row) => row.operationType === 'sso.tokensExpired')
      .map((row) => `${row.userName}: ${row.content}`);
    expect(rows.sort()).toEqual(
      ['eve', 'gus'].map(
        (name) =>
          `${name}@school.test: No sign-in through School IdP for 7 days, and the provider cannot be asked ` +
          'whether this user is still allowed: API tokens revoked: 1',
      ),
    );
    // A new sign-in through the provider starts the week again.
    gus = await signInWithoutRefreshToken(teacher('gus'));
    server.clock.advance(6 * DAY);
    expect((await server.app.sso.checkProviders()).tokensExpired).toBe(0);
    expect(await tokenWorks(gus.token)).toBe(true);
  });
});
