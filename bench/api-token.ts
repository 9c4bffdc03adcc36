/**
 * `npm run bench:api-token` (issue 28's budget): what an API token adds to a read call over the
 * same call with a console session. The call is the device list's first page (20 of PANELS
 * panels); the same client alternates a session call and a token call (the order flips every
 * pair), so both see the same load. Budget: the token's p50 at most 0.2 ms over the session's.
 * Each kind then runs alone for a block of calls to measure the server's CPU per call.
 * Tokens are throttled per token (600 calls a minute), so the calls are spread over TOKENS tokens.
 *
 * Environment: CALLS (2000 pairs), PANELS (200), TOKENS (10).
 */
import {
  cpuSeconds,
  fmt,
  loadAverage,
  machineDescription,
  printTable,
  runBenchmark,
  startServer,
} from './lib/harness.js';
import { Operator } from './lib/operator.js';

const CALLS = Number(process.env.CALLS ?? 2000);
const PANELS = Number(process.env.PANELS ?? 200);
const TOKENS = Number(process.env.TOKENS ?? 10);
const PATH = '/platform/device/list?start=1&size=20';

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

runBenchmark('bench:api-token', 600_000, async () => {
  const loads = [loadAverage()];
  const server = await startServer();
  const operator = await Operator.signIn(server.url);
  const secret = await operator.enrollmentSecret();
  for (let i = 0; i < PANELS; i++) {
    const response = await fetch(`${server.url}/device/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        v: 1,
        serial: `TOKEN-BENCH-${String(i).padStart(4, '0')}`,
        enrollmentSecret: secret,
      }),
    });
    if (!response.ok) throw new Error(`enrollment ${i}: ${response.status}`);
  }
  const tokens: string[] = [];
  for (let i = 0; i < TOKENS; i++) {
    const reply = (await operator.request('POST', '/platform/apiToken/create', {
      name: `bench ${i}`,
      scope: 'read',
    })) as { hhtStatus: string; dataObject?: { token: string } };
    if (reply.hhtStatus !== 'success' || !reply.dataObject)
      throw new Error(`token: ${JSON.stringify(reply)}`);
    tokens.push(reply.dataObject.token);
  }
  const cookie = operator.cookieHeader();
  let used = 0;
  const call = async (kind: 'session' | 'token') => {
    const headers: Record<string, string> =
      kind === 'session' ? { cookie } : { authorization: `Bearer ${tokens[used++ % tokens.length]}` };
    const t0 = process.hrtime.bigint();
    const response = await fetch(server.url + PATH, { headers });
    const body = (await response.json()) as { hhtStatus: string; listObject?: unknown[] };
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (body.hhtStatus !== 'success' || body.listObject?.length !== Math.min(20, PANELS))
      throw new Error(`${kind} call: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
    return ms;
  };

  for (let i = 0; i < 100; i++) await call(i % 2 ? 'session' : 'token'); // warm-up
  const session: number[] = [];
  const token: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    if (i % 2) {
      session.push(await call('session'));
      token.push(await call('token'));
    } else {
      token.push(await call('token'));
      session.push(await call('session'));
    }
  }
  const cpuPerCall = async (kind: 'session' | 'token', n: number) => {
    const cpu0 = cpuSeconds(server.child.pid!);
    for (let i = 0; i < n; i++) await call(kind);
    return (cpuSeconds(server.child.pid!) - cpu0) / n;
  };
  // A token makes at most 600 calls a minute: the token block stays under what TOKENS tokens may do.
  const block = Math.min(CALLS, TOKENS * 300);
  const sessionCpu = await cpuPerCall('session', block);
  const tokenCpu = await cpuPerCall('token', block);
  loads.push(loadAverage());
  await server.stop();

  session.sort((a, b) => a - b);
  token.sort((a, b) => a - b);
  const diff = quantile(token, 0.5) - quantile(session, 0.5);
  const row = (xs: number[]) =>
    `p50 ${fmt(quantile(xs, 0.5), 3)} ms, p90 ${fmt(quantile(xs, 0.9), 3)} ms, p99 ${fmt(quantile(xs, 0.99), 3)} ms`;
  printTable(
    `A read call with a token against a session: ${PATH}, ${PANELS} panels, ${CALLS} pairs (${new Date().toISOString().slice(0, 10)}; ${machineDescription()})`,
    [
      ['with a console session', row(session)],
      ['with an API token (Bearer)', row(token)],
      ['token p50 - session p50', `${fmt(diff, 3)} ms (budget < 0.2 ms)`],
      [
        'server CPU per call, session / token',
        `${fmt(sessionCpu * 1e6)} µs / ${fmt(tokenCpu * 1e6)} µs (${block} calls each)`,
      ],
      ['load average: start / end', loads.join(' / ')],
    ],
  );
  if (diff >= 0.2) process.exitCode = 1;
});
