import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signedIn, startServer, TestClient, type TestServer } from './harness.js';
import { md5Hex } from '../src/security/passwords.js';
import { throughProvider, TestIdp } from './oidc-idp.js';

const CALLBACK = 'http://panelfleet.test/platform/sso/callback';
const client = { clientId: 'panelfleet', clientSecret: 'very-secret-client-secret', redirectUri: CALLBACK };
const mappings = JSON.stringify([
  { claim: 'groups', value: 'teachers', userType: '4', programRole: 1 },
  { claim: 'groups', value: 'it', userType: '3', programRole: 0 },
]);

describe.each(backends)('single sign-on through an OIDC provider (%s)', (backend) => {
  let server: TestServer;
  let idp: TestIdp;
  let admin: TestClient;

  beforeAll(async () => {
    idp = await TestIdp.start(client);
    server = await startServer(backend, { CAPTCHA: 'off', OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
    admin = await signedIn(server, 'customer1', 'customer123');
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await idp.stop();
  });

  const configure = (extra: Record<string, string> = {}) =>
    admin.post('/platform/sso/settings', {
      enabled: '1',
      displayName: 'School IdP',
      issuer: idp.issuer,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      emailDomains: 'school.test',
      mappings,
      jit: '1',
      ssoOnly: '0',
      ...extra,
    });

  /** A browser's whole sign-in: find, start, the provider, the callback; gives where it lands. */
  async function signInThrough(returnTo = '/home/deviceManage', tamperState = false) {
    const browser = new TestClient(server.url, 'en-US');
    const found = await browser.get('/platform/sso/find?name=someone%40school.test');
    expect(found.body.hhtStatus).toBe('success');
    const started = await browser.get(
      `/platform/sso/start?provider=${String(found.body.providerId)}&returnTo=${encodeURIComponent(returnTo)}`,
    );
    expect(started.status).toBe(302);
    let back = await throughProvider(started.headers.get('location')!, CALLBACK);
    if (tamperState) back = back.replace(/state=[^&]+/, 'state=forged');
    const landed = await browser.get(back.slice('http://panelfleet.test'.length));
    expect(landed.status).toBe(302);
    return { browser, location: landed.headers.get('location')! };
  }

  it('keeps the secret to itself and tells the redirect URL to register', async () => {
    expect((await configure()).body.hhtStatus).toBe('success');
    const read = await admin.get('/platform/sso/settings');
    const item = read.body.dataObject as Record<string, unknown>;
    expect(item.hasSecret).toBe(1);
    expect(read.text).not.toContain(client.clientSecret);
    expect(item.redirectUrl).toBe(CALLBACK);
    const wrongType = await configure({
      mappings: JSON.stringify([{ claim: 'g', value: 'x', userType: '0' }]),
    });
    expect(wrongType.body.hhtMsg).toBe("This organisation's users cannot be given that user type");
  });

  it('creates a new user with the mapped type and starts a normal session', async () => {
    idp.account = { sub: 'ann', email: 'ann@school.test', email_verified: true, groups: ['teachers'] };
    const { browser, location } = await signInThrough();
    expect(location).toBe('/home/deviceManage');
    const me = await browser.get('/platform/user/select/userType');
    expect(me.body).toMatchObject({ hhtStatus: 'success', userType: '4', userName: 'ann@school.test' });
    const again = await signInThrough('/home');
    expect((await again.browser.get('/platform/user/select/userType')).body.userName).toBe('ann@school.test');
  });

  it('refuses an open redirect and sends the browser to the console instead', async () => {
    idp.account = { sub: 'ann', email: 'ann@school.test', email_verified: true, groups: ['teachers'] };
    for (const evil of ['https://evil.test/x', '//evil.test', '/\\evil.test', '/home//evil.test']) {
      expect((await signInThrough(evil)).location).toBe('/home');
    }
  });

  it('refuses a domain not allowed and a group mapping giving no user type, with clear messages', async () => {
    idp.account = { sub: 'eve', email: 'eve@elsewhere.test', email_verified: true, groups: ['teachers'] };
    expect((await signInThrough()).location).toBe('/login?sso=sso.domainNotAllowed');
    idp.account = { sub: 'bob', email: 'bob@school.test', email_verified: true, groups: ['pupils'] };
    expect((await signInThrough()).location).toBe('/login?sso=sso.noUserType');
    const log = await admin.post('/platform/operationLog/list', { pageNum: '1', pageSize: '50' });
    expect(log.text).toContain('bob@school.test: refused (no mapping matched)');
    expect(log.text).toContain('eve@elsewhere.test: refused (domain elsewhere.test)');
  });

  it('refuses a wrong audience, an expired ID token, a nonce mismatch, a replayed token and a forged state', async () => {
    idp.account = { sub: 'ann', email: 'ann@school.test', email_verified: true, groups: ['teachers'] };
    const refusedWith = async (tamper: (c: Record<string, unknown>) => Record<string, unknown>) => {
      idp.tamper = tamper;
      try {
        return (await signInThrough()).location;
      } finally {
        idp.tamper = undefined;
      }
    };
    expect(await refusedWith((c) => ({ ...c, aud: 'another-client' }))).toBe('/login?sso=sso.tokenInvalid');
    const past = Math.floor(Date.now() / 1000) - 3600;
    expect(await refusedWith((c) => ({ ...c, iat: past - 60, exp: past }))).toBe(
      '/login?sso=sso.tokenInvalid',
    );
    expect(await refusedWith((c) => ({ ...c, nonce: 'not-the-one' }))).toBe('/login?sso=sso.tokenInvalid');
    idp.replay = idp.issued.at(-1);
    try {
      expect((await signInThrough()).location).toBe('/login?sso=sso.tokenInvalid');
    } finally {
      idp.replay = undefined;
    }
    expect((await signInThrough('/home', true)).location).toBe('/login?sso=sso.stateInvalid');
  });

  it("picks up the provider's rotated keys", async () => {
    idp.account = { sub: 'ann', email: 'ann@school.test', email_verified: true, groups: ['teachers'] };
    expect((await signInThrough()).location).toBe('/home/deviceManage');
    await idp.rotateKeys('k2');
    expect(idp.currentKid()).toBe('k2');
    expect((await signInThrough()).location).toBe('/home/deviceManage');
  });

  it('SSO only refuses local passwords except the break-glass administrator', async () => {
    expect((await configure({ ssoOnly: '1', breakGlassUser: 'customer1' })).body.hhtStatus).toBe('success');
    const browser = new TestClient(server.url, 'en-US');
    const refused = await browser.post('/platform/login', {
      username: 'operator1',
      password: md5Hex('operator123'),
    });
    expect(refused.body.hhtMsg).toBe(
      'This organisation signs in with its identity provider; use "Sign in with your organisation"',
    );
    const breakGlass = await browser.post('/platform/login', {
      username: 'customer1',
      password: md5Hex('customer123'),
    });
    expect(breakGlass.body.hhtStatus).toBe('success');
    expect((await configure({ ssoOnly: '0' })).body.hhtStatus).toBe('success');
  });
});
