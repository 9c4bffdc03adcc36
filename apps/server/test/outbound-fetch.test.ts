import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../src/security/outbound-fetch.js';
import { OutboundRefused } from '../src/security/outbound.js';
import { backends, signedIn, startServer, TestClient, type TestServer } from './harness.js';
import { TestIdp } from './oidc-idp.js';
import { startReceiver } from './webhook-receiver.js';

// The identity provider's calls go through the one outbound guard (security/outbound.ts): the
// fetch openid-client is given (security/outbound-fetch.ts), and what single sign-on makes of it.

const limits = { timeoutMs: 2_000, maxBytes: 64, httpsOnly: true };

describe('the guarded fetch', () => {
  it('refuses link-local and metadata addresses even where private ones are allowed', async () => {
    const open = guardedFetch({ allowPrivate: true, allowHosts: ['169.254.169.254'] }, limits);
    for (const url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://[fe80::1]/',
    ])
      await expect(open(url), url).rejects.toThrow(OutboundRefused);
  });

  it('refuses plain http and private addresses unless the deployment allows them', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const url = `${receiver.url}/.well-known/openid-configuration`;
      await expect(guardedFetch({ allowPrivate: false }, limits)(url)).rejects.toThrow(/only https/);
      // OUTBOUND_ALLOW_PRIVATE lets an https provider be private; plain http needs the host named.
      await expect(guardedFetch({ allowPrivate: true }, limits)(url)).rejects.toThrow(/only https/);
      await expect(
        guardedFetch({ allowPrivate: false }, limits)(url.replace('http:', 'https:')),
      ).rejects.toThrow(/OUTBOUND_ALLOW_PRIVATE/);
      expect(receiver.calls).toHaveLength(0);

      const named = guardedFetch({ allowPrivate: false, allowHosts: ['127.0.0.1'] }, limits);
      const answer = await named(url, { method: 'POST', body: new URLSearchParams({ a: '1' }) });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('answer 200');
      expect(receiver.calls[0]!.body).toBe('a=1');
    } finally {
      await receiver.close();
    }
  });

  it('connects to the address it checked, whatever the name resolves to later', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const port = new URL(receiver.url).port;
      let lookups = 0;
      // The first answer is checked and used; a second lookup (a rebinding DNS server) is never made.
      const resolve = async () => {
        lookups++;
        return [{ address: lookups === 1 ? '127.0.0.1' : '169.254.169.254', family: 4 }];
      };
      const fetchIt = guardedFetch(
        { allowPrivate: false, allowHosts: ['idp.rebind.example'] },
        { ...limits, resolve },
      );
      const answer = await fetchIt(`http://idp.rebind.example:${port}/token`, { method: 'POST', body: 'x' });
      expect(answer.status).toBe(200);
      expect(lookups).toBe(1);
      expect(receiver.calls[0]!.headers.host).toBe(`idp.rebind.example:${port}`);
      await expect(fetchIt(`http://idp.rebind.example:${port}/token`)).rejects.toThrow(/link-local/);
      expect(receiver.calls).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('follows no redirect, refuses an answer too long, and gives up on a provider that never answers', async () => {
    const receiver = await startReceiver((n) =>
      n === 0 ? { status: 302 } : n === 1 ? 'hang' : { status: 200 },
    );
    try {
      const fetchIt = guardedFetch({ allowPrivate: false, allowHosts: ['127.0.0.1'] }, limits);
      expect((await fetchIt(receiver.url)).status).toBe(302);
      await expect(fetchIt(receiver.url)).rejects.toThrow(/no answer within 2000 ms/);
      const short = guardedFetch(
        { allowPrivate: false, allowHosts: ['127.0.0.1'] },
        { ...limits, maxBytes: 4 },
      );
      await expect(short(receiver.url)).rejects.toThrow(/longer than 4 bytes/);
      expect(receiver.calls).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });
});

describe.each(backends)('single sign-on through the outbound guard (%s)', (backend) => {
  const callback = 'http://panelfleet.test/platform/sso/callback';
  const client = { clientId: 'panelfleet', clientSecret: 'very-secret-client-secret', redirectUri: callback };
  let server: TestServer;
  let idp: TestIdp;
  let admin: TestClient;

  beforeAll(async () => {
    idp = await TestIdp.start(client);
    // Private receivers allowed, but the provider's host is not named: its plain http is refused.
    server = await startServer(backend, { CAPTCHA: 'off', OUTBOUND_ALLOW_PRIVATE: '1' });
    admin = await signedIn(server, 'customer1', 'customer123');
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await idp.stop();
  });

  it('refuses a provider at a metadata address or over plain http, in the caller’s language', async () => {
    for (const issuer of [idp.issuer, 'https://169.254.169.254']) {
      const saved = await admin.post('/platform/sso/settings', {
        enabled: '1',
        displayName: 'School IdP',
        issuer,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        emailDomains: 'school.test',
        mappings: JSON.stringify([{ claim: 'groups', value: 'teachers', userType: '4', programRole: 1 }]),
        jit: '1',
        ssoOnly: '0',
      });
      expect(saved.body.hhtStatus).toBe('success');
      for (const [language, message] of [
        ['en-US', "This server may not connect to that identity provider's address"],
        ['zh-CN', '本服务器不允许连接该身份提供方的地址'],
      ] as const) {
        const browser = new TestClient(server.url, language);
        const found = await browser.get('/platform/sso/find?name=ann%40school.test');
        const started = await browser.get(`/platform/sso/start?provider=${String(found.body.providerId)}`);
        expect(started.body, issuer).toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
      }
    }
  });
});
