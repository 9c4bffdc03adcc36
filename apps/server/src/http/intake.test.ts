import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorHandling } from './errors.js';
import { installIntake } from './intake.js';

/** A server whose `/held` requests wait until the test lets them answer. */
async function serverWithHeldRequests() {
  const app = Fastify();
  const intake = installIntake(app);
  installErrorHandling(app);
  let entered = 0;
  let letGo: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  app.get('/held', async () => {
    entered++;
    await held;
    return { hhtStatus: 'success' };
  });
  app.get('/quick', async () => ({ hhtStatus: 'success' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return { app, intake, port, entered: () => entered, letGo };
}

/** A GET over a keep-alive agent, as a balancer or a browser keeps its connections. */
function get(port: number, path: string, agent: http.Agent) {
  return new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      })
      .on('error', reject);
  });
}

const until = async (what: string, check: () => boolean) => {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`never: ${what}`);
};

describe('the HTTP intake at shutdown', () => {
  const agent = new http.Agent({ keepAlive: true });
  afterEach(() => agent.destroy());

  it('lets the request in flight answer on a closing connection, refuses new connections, and leaves nothing open', async () => {
    const server = await serverWithHeldRequests();
    const inFlight = get(server.port, '/held', agent);
    await until('the request in flight', () => server.entered() === 1);

    server.intake.stop();
    await expect(get(server.port, '/quick', new http.Agent())).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
    let drained = false;
    const draining = server.intake.drained(60_000).then(() => (drained = true));
    expect(drained).toBe(false);
    server.letGo();
    expect(await inFlight).toEqual({ status: 200, connection: 'close', body: '{"hhtStatus":"success"}' });
    await draining;
    // Fastify's close now finds no connection to wait for (a kept-alive one would hold it 72 s).
    await server.app.close();
  });

  it('answers a request that still reaches it 503 in the envelope, in the caller language', async () => {
    const server = await serverWithHeldRequests();
    server.intake.stop();
    for (const [language, message] of [
      ['en-US', 'The service is briefly unavailable; please try again in a moment'],
      ['zh-CN', '服务暂时不可用，请稍后再试'],
    ] as const) {
      const reply = await server.app.inject({
        method: 'GET',
        url: '/quick',
        headers: { 'accept-language': language },
      });
      expect(reply.statusCode).toBe(503);
      expect(reply.headers.connection).toBe('close');
      expect(reply.json()).toMatchObject({ hhtStatus: 'fail', hhtMsg: message });
    }
    expect(server.entered()).toBe(0);
    await server.intake.drained(60_000);
    await server.app.close();
  });
});
