import {
  allCalls,
  tokenAdmits,
  tokenNeedOf,
  translate,
  TOKEN_SCOPES,
  type CallDef,
  type TokenScope,
  type UserType,
} from '@panelfleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  signedIn,
  startServer,
  TestClient,
  type TestResponse,
  type TestServer,
} from './harness.js';
import { bearer, makeToken } from './api-token-helpers.js';

/**
 * The access matrix of API tokens, generated from the contract: every call, with a token of every
 * scope, of two users (the platform's type 0 and a customer administrator, type 4). The
 * prediction is written from the declarations' meaning (access.ts: `tokenNeedOf`, the scopes'
 * order, the user types), and a refusal must be exactly the predicted one.
 */

type Expected = { allowed: true } | { allowed: false; status: number; key: string; challenge?: boolean };

function predict(call: CallDef, scope: TokenScope, userType: UserType): Expected {
  const access = call.access;
  if (access.kind === 'anonymous') return { allowed: true };
  if (access.kind === 'panel')
    return { allowed: false, status: 401, key: 'download.deviceOnly', challenge: true };
  const need = tokenNeedOf(call);
  if (need === 'never') return { allowed: false, status: 403, key: 'apiToken.notAllowed' };
  if (!tokenAdmits(need, scope)) return { allowed: false, status: 403, key: 'apiToken.outOfScope' };
  if (!access.types.includes(userType))
    return { allowed: false, status: 403, key: access.refusal ?? 'common.forbidden' };
  return { allowed: true };
}

const ACCESS_KEYS = [
  'common.forbidden',
  'PleaseActive',
  'device.customersOnly',
  'catalog.platformOnly',
  'common.sessionExpired',
  'download.deviceOnly',
  'apiToken.notAllowed',
  'apiToken.invalid',
  'apiToken.outsideLabels',
];
const accessTexts = new Set(ACCESS_KEYS.map((key) => translate('en-US', key)));
const isAccessRefusal = (reply: TestResponse) =>
  reply.status === 401 ||
  (reply.status === 403 &&
    (accessTexts.has(String(reply.body.hhtMsg)) || String(reply.body.hhtMsgKey) === 'apiToken.outOfScope'));

function matches(reply: TestResponse, expected: Expected, method: string): boolean {
  if (expected.allowed) return !isAccessRefusal(reply) && reply.status < 500;
  if (method === 'HEAD') return reply.status === expected.status;
  if (reply.status !== expected.status || reply.body.hhtStatus !== 'fail') return false;
  if (reply.body.hhtMsgKey !== expected.key) return false;
  if (expected.challenge && !/^Basic/.test(reply.headers.get('www-authenticate') ?? '')) return false;
  return true;
}

const callWith = (client: TestClient, call: CallDef, token: string) => {
  const url = call.path.replace(/:(\w+)/g, 'probe');
  const headers = bearer(token);
  if (call.method === 'GET') return client.get(url, headers);
  if (call.method === 'POST') return client.post(url, {}, headers);
  return client.request(call.method, url, { headers: { ...headers, 'tus-resumable': '1.0.0' } });
};

describe.each(backends)('API token access matrix on %s', (backend) => {
  let server: TestServer;
  const tokens: Array<{ user: string; userType: UserType; scope: TokenScope; token: string }> = [];

  beforeAll(async () => {
    server = await startServer(
      backend,
      {},
      { throttle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000 } },
    );
    for (const [user, password, userType] of [
      ['admin', 'admin123', '0'],
      ['operator1', 'operator123', '4'],
    ] as const) {
      const client = await signedIn(server, user, password);
      for (const scope of TOKEN_SCOPES)
        tokens.push({ user, userType, scope, token: (await makeToken(client, scope)).token });
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers every call as its token declaration predicts, for every scope', async () => {
    const client = new TestClient(server.url);
    const differences: string[] = [];
    let checked = 0;
    const admitted: Record<TokenScope, number> = { read: 0, operate: 0, manage: 0 };
    for (const { user, userType, scope, token } of tokens) {
      for (const call of allCalls) {
        const expected = predict(call, scope, userType);
        const reply = await callWith(client, call, token);
        checked++;
        if (expected.allowed && call.access.kind === 'user') admitted[scope]++;
        if (!matches(reply, expected, call.method))
          differences.push(
            `${call.method} ${call.path} with ${user}'s ${scope} token: expected ${expected.allowed ? 'admission' : `${expected.status} ${expected.key}`}, got ${reply.status} ${String(reply.body.hhtMsgKey ?? reply.body.hhtMsg ?? reply.text.slice(0, 80))}`,
          );
      }
    }
    console.log(
      `token access matrix: ${checked - differences.length} of ${checked} as declared; user calls admitted per scope (two users): ${JSON.stringify(admitted)}`,
    );
    expect(differences).toEqual([]);
    expect(checked).toBe(allCalls.length * tokens.length);
    expect(admitted.read).toBeGreaterThan(0);
    expect(admitted.operate).toBeGreaterThan(admitted.read);
    expect(admitted.manage).toBeGreaterThan(admitted.operate);
  }, 240_000);

  it('never lets a token reach accounts, passwords, sessions or tokens', () => {
    const reachable = allCalls.filter(
      (call) => ['accounts', 'session', 'api tokens'].includes(call.tag) && tokenNeedOf(call) !== 'never',
    );
    expect(reachable.map((c) => c.path)).toEqual([]);
  });
});
