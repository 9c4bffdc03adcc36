import { allCalls, translate, type Access, type CallDef } from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../src/security/tokens.js';
import { enroll, enrollmentSecretOf } from './device-helpers.js';
import {
  backends,
  signedIn,
  startServer,
  TestClient,
  type TestResponse,
  type TestServer,
} from './harness.js';

/**
 * The access matrix, generated from the contract: every call, as every kind of caller. The
 * prediction below is written from the declarations' meaning (access.ts), not with the
 * server's own code, and a refusal must be exactly the predicted one: a validation error or
 * any other answer does not count as a refusal, and an admitted caller must never meet an
 * access refusal. A new call is covered by declaring it.
 */

type CallerName =
  | 'no cookie'
  | 'expired session'
  | 'panel'
  | 'type 0'
  | 'type 1'
  | 'type 2'
  | 'type 3'
  | 'type 4'
  | 'inactive type 2'
  | 'special deployment type 1';

interface Caller {
  name: CallerName;
  client: TestClient;
  /** Signed-in user, if any: its type and activation. */
  user?: { type: '0' | '1' | '2' | '3' | '4'; activated: boolean; special: boolean };
  panelAuth?: string;
}

type Expected =
  | { allowed: true }
  | { allowed: false; status: number; key: string; sessionMarker?: boolean; challenge?: boolean };

function predict(access: Access, caller: Caller): Expected {
  if (access.kind === 'anonymous') return { allowed: true };
  if (access.kind === 'panel') {
    return caller.panelAuth
      ? { allowed: true }
      : { allowed: false, status: 401, key: 'download.deviceOnly', challenge: true };
  }
  const user = caller.user;
  if (!user) return { allowed: false, status: 401, key: 'common.sessionExpired', sessionMarker: true };
  const forbidden = { allowed: false, status: 403, key: 'common.forbidden' } as const;
  if (user.special && access.deployment === 'standard') return forbidden;
  if (!access.types.includes(user.type)) return { ...forbidden, key: access.refusal ?? 'common.forbidden' };
  if (access.activated && user.type === '2' && !user.activated)
    return { allowed: false, status: 403, key: 'PleaseActive' };
  return { allowed: true };
}

const ACCESS_REFUSAL_KEYS = [
  'common.forbidden',
  'PleaseActive',
  'device.customersOnly',
  'catalog.platformOnly',
  'common.sessionExpired',
  'download.deviceOnly',
];
const refusalTexts = new Set(ACCESS_REFUSAL_KEYS.map((key) => translate('en-US', key)));

/** True when the reply is an access refusal of any kind (what an admitted caller must never get). */
const isAccessRefusal = (reply: TestResponse) =>
  reply.status === 401 || (reply.status === 403 && refusalTexts.has(String(reply.body.hhtMsg)));

function matches(reply: TestResponse, expected: Expected, method: string): boolean {
  if (expected.allowed) return !isAccessRefusal(reply) && reply.status < 500;
  // A HEAD answer has no body: its status (and challenge) is what it can show.
  if (method === 'HEAD')
    return (
      reply.status === expected.status &&
      (!expected.challenge || /^Basic/.test(reply.headers.get('www-authenticate') ?? ''))
    );
  if (reply.status !== expected.status || reply.body.hhtStatus !== 'fail') return false;
  if (reply.body.hhtMsg !== translate('en-US', expected.key)) return false;
  if (expected.sessionMarker && reply.body.status !== 518) return false;
  if (expected.challenge && !/^Basic/.test(reply.headers.get('www-authenticate') ?? '')) return false;
  return true;
}

/** Sign-out ends the caller's session: it goes last. */
const ordered = (calls: CallDef[]) => [
  ...calls.filter((c) => c.path !== '/platform/loginOut'),
  ...calls.filter((c) => c.path === '/platform/loginOut'),
];

const callOnce = (caller: Caller, call: CallDef) => {
  const url = call.path.replace(/:(\w+)/g, 'probe');
  const headers = caller.panelAuth ? { authorization: caller.panelAuth } : undefined;
  if (call.method === 'GET') return caller.client.get(url, headers);
  if (call.method === 'POST') return caller.client.post(url, {}, headers);
  // The resumable-upload (tus) endpoints: PATCH, HEAD and DELETE with the tus header.
  return caller.client.request(call.method, url, { headers: { ...headers, 'tus-resumable': '1.0.0' } });
};

describe.each(backends)('access matrix on %s', (backend) => {
  let server: TestServer;
  let special: TestServer;
  const callers: Caller[] = [];

  beforeAll(async () => {
    const generous = { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } };
    server = await startServer(backend, {}, generous);
    special = await startServer(backend, { ROLE_FLAG: '1' }, generous);
    const as = async (
      name: CallerName,
      userName: string,
      password: string,
      type: '0' | '1' | '2' | '3' | '4',
      activated = true,
      on = server,
    ) =>
      callers.push({
        name,
        client: await signedIn(on, userName, password),
        user: { type, activated, special: on === special },
      });

    callers.push({ name: 'no cookie', client: new TestClient(server.url) });
    const expired = await signedIn(server, 'operator1', 'operator123');
    await server.app.db.kysely
      .updateTable('sessions')
      .set({ created_at: 0, last_seen_at: 0 })
      .where('id', '=', tokenHash(expired.cookie('pf_session')!))
      .execute();
    callers.push({ name: 'expired session', client: expired });
    await as('type 0', 'admin', 'admin123', '0');
    await as('type 1', 'sales1', 'sales123', '1');
    await as('type 2', 'customer1', 'customer123', '2');
    await as('type 3', 'manager1', 'manager123', '3');
    await as('type 4', 'operator1', 'operator123', '4');
    await as('inactive type 2', 'newcustomer', 'customer123', '2', false);
    await as('special deployment type 1', 'sales1', 'sales123', '1', true, special);
    const operator = callers.find((c) => c.name === 'type 4')!.client;
    const credentials = await enroll(server.url, 'MATRIX-PANEL-1', await enrollmentSecretOf(operator));
    callers.push({
      name: 'panel',
      client: new TestClient(server.url),
      panelAuth: `Basic ${Buffer.from(`${credentials.deviceKey}:${credentials.password}`).toString('base64')}`,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await special?.stop();
  });

  it('answers every call as its declaration predicts, for every kind of caller', async () => {
    const differences: string[] = [];
    let checked = 0;
    for (const caller of callers) {
      for (const call of ordered(allCalls)) {
        const expected = predict(call.access, caller);
        const reply = await callOnce(caller, call);
        checked++;
        if (!matches(reply, expected, call.method)) {
          differences.push(
            `${call.method} ${call.path} as ${caller.name}: expected ${expected.allowed ? 'admission' : `${expected.status} ${expected.key}`}, got ${reply.status} ${String(reply.body.hhtMsg ?? reply.text.slice(0, 80))}`,
          );
        }
      }
    }
    console.log(`access matrix: ${checked - differences.length} of ${checked} as declared`);
    expect(differences).toEqual([]);
    expect(checked).toBe(allCalls.length * callers.length);
    // Thousands of requests one after another: a busy machine needs more than the default 30 s.
  }, 180_000);

  it('routes every call of the contract', () => {
    const unrouted = allCalls
      .filter((call) => !server.app.http.hasRoute({ method: call.method, url: call.path }))
      .map((c) => c.path);
    expect(unrouted).toEqual([]);
  });

  it('cannot register a call without an access declaration', async () => {
    const { createRouter } = await import('../src/http/router.js');
    const router = createRouter(server.app.http, {
      authenticate: async () => Promise.reject(new Error('unused')),
      verifyPanel: async () => false,
      special: false,
    });
    const undeclared = {
      ...allCalls[0]!,
      path: '/probe/undeclared',
      access: undefined,
    } as unknown as CallDef;
    expect(() => router.add(undeclared, async () => undefined)).toThrow(/no access declaration/);
  });
});
