import { allCalls, failReply, type CallDef } from '@panelfleet/contract';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { md5Hex } from '../src/security/passwords.js';
import { wavTone } from './audio-fixtures.js';
import { backends, signedIn, startServer, TestClient, type TestServer } from './harness.js';

const THROTTLE = { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } };

async function signInWith(
  server: TestServer,
  client: TestClient,
  userName: string,
  password: string,
  headers: Record<string, string> = {},
) {
  await client.get('/kaptcha/defaultKaptcha', headers);
  const tryCode = await server.captchaAnswer(client);
  return client.post('/platform/login', { username: userName, password: md5Hex(password), tryCode }, headers);
}

/** The address the server recorded for the newest session. */
async function lastSessionIp(server: TestServer) {
  const row = await server.app.db.kysely
    .selectFrom('sessions')
    .select('ip')
    .orderBy('created_at', 'desc')
    .orderBy('ip')
    .executeTakeFirstOrThrow();
  return row.ip;
}

describe('TRUST_PROXY', () => {
  it('is empty by default and takes addresses, CIDRs and named ranges', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.5, 10.0.0.0/8,::1 ,fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else at start-up', () => {
    for (const bad of ['true', '*', 'proxy.example', '10.0.0.0/33', '10.0.0.1/8/8', '10.0.0.256']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

describe.each(backends)('X-Forwarded-For on %s', (backend) => {
  describe('without TRUST_PROXY', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(
        backend,
        {},
        { throttle: { perAccount: 1000, perAddress: 3, windowMs: 60_000 } },
      );
    });
    afterAll(() => server.stop());

    it('ignores the header: sessions record the real peer address', async () => {
      const client = new TestClient(server.url);
      const reply = await signInWith(server, client, 'operator1', 'operator123', {
        'x-forwarded-for': '198.51.100.77',
      });
      expect(reply.body.hhtStatus).toBe('success');
      expect(await lastSessionIp(server)).toBe('127.0.0.1');
    });

    it('does not let a client escape the per-address limit by rotating the header', async () => {
      for (let i = 0; i < 3; i++) {
        const reply = await signInWith(server, new TestClient(server.url), `nobody${i}`, 'bad12345', {
          'x-forwarded-for': `198.51.100.${i + 1}`,
        });
        expect(reply.status).toBe(200);
      }
      const fourth = await signInWith(server, new TestClient(server.url), 'nobody9', 'bad12345', {
        'x-forwarded-for': '198.51.100.99',
      });
      expect(fourth.status).toBe(429);
    });
  });

  describe('with TRUST_PROXY naming the proxy', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(backend, { TRUST_PROXY: '10.9.8.7, 127.0.0.0/8' }, THROTTLE);
    });
    afterAll(() => server.stop());

    it('takes the client address from the header the proxy adds', async () => {
      const client = new TestClient(server.url);
      const reply = await signInWith(server, client, 'operator1', 'operator123', {
        'x-forwarded-for': '198.51.100.77',
      });
      expect(reply.body.hhtStatus).toBe('success');
      expect(await lastSessionIp(server)).toBe('198.51.100.77');
    });
  });

  describe('with TRUST_PROXY naming another host', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(backend, { TRUST_PROXY: '10.9.8.7' }, THROTTLE);
    });
    afterAll(() => server.stop());

    it('does not believe a peer that is not the configured proxy', async () => {
      const reply = await signInWith(server, new TestClient(server.url), 'operator1', 'operator123', {
        'x-forwarded-for': '198.51.100.78',
      });
      expect(reply.body.hhtStatus).toBe('success');
      expect(await lastSessionIp(server)).toBe('127.0.0.1');
    });
  });
});

describe.each(backends)('Origin check on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend, {}, THROTTLE);
  });
  afterAll(() => server.stop());

  const signOutFrom = (origin: string) =>
    new TestClient(server.url).post('/platform/loginOut', {}, { origin });

  it('refuses the same host with another scheme or port, and BASE_URL’s host with another scheme or port', async () => {
    const port = new URL(server.url).port;
    for (const origin of [
      `https://127.0.0.1:${port}`,
      `http://127.0.0.1:${Number(port) + 1}`,
      'http://127.0.0.1',
      'https://panelfleet.test',
      'http://panelfleet.test:8080',
      'null',
    ]) {
      const reply = await signOutFrom(origin);
      expect(reply.status, origin).toBe(403);
      expect(failReply.parse(reply.body).hhtMsg).toMatch(/another site/);
    }
  });

  it('lets the requested origin and BASE_URL’s origin through', async () => {
    const port = new URL(server.url).port;
    for (const origin of [
      `http://127.0.0.1:${port}`,
      'http://panelfleet.test',
      'http://panelfleet.test:80',
    ]) {
      const reply = await signOutFrom(origin);
      expect(reply.status, origin).not.toBe(403);
    }
  });
});

/** Every parameter name a call declares, or a made-up one for a call without any. */
function paramNames(call: CallDef): string[] {
  const schema = z.toJSONSchema(call.params, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
  };
  const names = Object.keys(schema.properties ?? {});
  return names.length ? names : ['note'];
}

describe.each(backends)('U+0000 in text on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(backend, {}, THROTTLE);
  });
  afterAll(() => server.stop());

  const countRows = async () => {
    const db = server.app.db.kysely;
    const count = async (table: 'users' | 'organisations' | 'login_failures' | 'operation_logs') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      users: await count('users'),
      organisations: await count('organisations'),
      failures: await count('login_failures'),
      log: await count('operation_logs'),
    };
  };

  const expectRefused = (
    reply: { status: number; body: Record<string, unknown> },
    field: string,
    what: string,
  ) => {
    expect(reply.status, what).toBe(400);
    expect(failReply.parse(reply.body).hhtMsg, what).toContain(field);
  };

  it('refuses sign-in, registration and password recovery with a clear fail, storing nothing', async () => {
    const before = await countRows();
    const client = new TestClient(server.url);
    await client.get('/kaptcha/defaultKaptcha');
    const tryCode = await server.captchaAnswer(client);
    expectRefused(
      await client.post('/platform/login', {
        username: 'operator1\u0000',
        password: md5Hex('x1234567'),
        tryCode,
      }),
      'username',
      'login',
    );
    expectRefused(
      await client.post('/platform/register', {
        companyName: 'Nul\u0000 Company',
        saleName: '1',
        license: 'LIC-1',
        userName: 'nulcompany',
        phone: '13800000000',
        email: 'nul@example.com',
        userPass: md5Hex('abc12345'),
        secondPassword: md5Hex('abc12345'),
      }),
      'companyName',
      'register',
    );
    expectRefused(
      await client.post('/platform/forgetPassword', { email: 'op\u0000@example.com' }),
      'email',
      'forgetPassword',
    );
    // JSON bodies and query strings too, in the caller's language.
    client.language = 'zh-CN';
    const json = await client.request('POST', '/platform/login', {
      json: { username: 'a\u0000', password: md5Hex('x1234567'), tryCode },
    });
    expectRefused(json, 'username', 'login as JSON');
    expect(failReply.parse(json.body).hhtMsg).toMatch(/[\u4e00-\u9fff]/);
    expect(await countRows()).toEqual(before);
  });

  it('refuses U+0000 in a multipart file name or field, storing nothing', async () => {
    const operator = await signedIn(server, 'operator1', 'operator123');
    const upload = async (path: string, fileField: string, name: string, fields: Record<string, string>) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append(fileField, new Blob([wavTone()]), name);
      const response = await fetch(server.url + path, {
        method: 'POST',
        headers: { cookie: `pf_session=${operator.cookie('pf_session')}`, 'accept-language': 'en-US' },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const materialsBefore = await server.app.db.kysely.selectFrom('materials').selectAll().execute();
    expectRefused(
      await upload('/material/insertMaterial', 'uiFile', 'bell\u0000.wav', { fileType: '2' }),
      'uiFile',
      'material file name',
    );
    expectRefused(
      await upload('/material/insertMaterial', 'uiFile', 'bell.wav', { fileType: '2\u0000' }),
      'fileType',
      'material field',
    );
    expect(await server.app.db.kysely.selectFrom('materials').selectAll().execute()).toEqual(materialsBefore);
  });

  it('refuses every call of the contract with U+0000 in any parameter, signed in or not, and never answers 500', async () => {
    const clients = {
      anonymous: new TestClient(server.url),
      admin: await signedIn(server, 'admin', 'admin123'),
      customer: await signedIn(server, 'customer1', 'customer123'),
      operator: await signedIn(server, 'operator1', 'operator123'),
    };
    const before = await countRows();
    for (const [who, client] of Object.entries(clients)) {
      for (const call of allCalls) {
        for (const name of paramNames(call)) {
          const what = `${who} ${call.method} ${call.path} ${name}`;
          const value = `text\u0000more`;
          const reply =
            call.method === 'GET'
              ? await client.get(`${call.path}?${new URLSearchParams({ [name]: value }).toString()}`)
              : await client.request('POST', call.path, { json: { [name]: value } });
          expectRefused(reply, name, what);
        }
      }
    }
    expect(await countRows()).toEqual(before);
  });
});

/** The directives of a Content-Security-Policy header, by name. */
function cspDirectives(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name, ...values] = part.split(/\s+/);
        return [name!, values];
      }),
  );
}

describe.each(backends)('security headers on %s', (backend) => {
  describe('plain-http deployment without a net-speed page', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(backend, {}, THROTTLE);
    });
    afterAll(() => server.stop());

    it('sends a strict Content-Security-Policy and the other protective headers on every reply', async () => {
      const client = new TestClient(server.url);
      for (const reply of [
        await client.get('/platform/config/runtime'),
        await client.get('/platform/nothing-here'),
        await client.post('/platform/login', { username: '' }),
      ]) {
        const csp = cspDirectives(reply.headers.get('content-security-policy'));
        expect(csp['default-src']).toEqual(["'self'"]);
        expect(csp['script-src']).toEqual(["'self'"]);
        expect(csp['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
        expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
        expect(csp['object-src']).toEqual(["'none'"]);
        expect(csp['frame-ancestors']).toEqual(["'none'"]);
        expect(csp['frame-src']).toEqual(["'none'"]);
        expect(csp['base-uri']).toEqual(["'self'"]);
        expect(csp['form-action']).toEqual(["'self'"]);
        expect(csp['connect-src']).toEqual(["'self'", 'ws://panelfleet.test']);
        // Over plain http, upgrading requests would break the console.
        expect(csp['upgrade-insecure-requests']).toBeUndefined();
        expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
        expect(reply.headers.get('x-frame-options')).toBe('DENY');
        expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
        expect(reply.headers.get('strict-transport-security')).toBeNull();
        expect(reply.headers.get('x-powered-by')).toBeNull();
      }
    });
  });

  describe('https deployment with a net-speed page elsewhere', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(
        backend,
        { BASE_URL: 'https://console.example:8443', NET_SPEED_URL: 'https://speed.example:8080/test?x=1' },
        THROTTLE,
      );
    });
    afterAll(() => server.stop());

    it('lets the net-speed page be framed, upgrades requests and asks for HTTPS only', async () => {
      const reply = await new TestClient(server.url).get('/platform/config/runtime');
      const csp = cspDirectives(reply.headers.get('content-security-policy'));
      expect(csp['frame-src']).toEqual(['https://speed.example:8080']);
      expect(csp['connect-src']).toEqual(["'self'", 'wss://console.example:8443']);
      expect(csp['upgrade-insecure-requests']).toEqual([]);
      expect(reply.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    });
  });
});
