import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetPassword } from '../src/admin/reset-password.js';
import { installRequestLog, loggerOptions } from '../src/http/logging.js';
import { HealthService } from '../src/modules/health/service.js';
import type { HealthRepository } from '../src/modules/health/repository.js';
import { backends, signedIn, startServer, TEST_PEPPER, type TestServer } from './harness.js';

/** What a newcomer's first hour needs from the server: readiness, a password reset, readable logs. */
describe.each(backends)('operations on %s', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(backend);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers GET /healthz with a plain "ok" for anyone while database and broker work', async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('ok\ndatabase: ok\nbroker: ok\n');
  });

  it('answers 503 and names the broker when it has stopped', async () => {
    const own = await startServer(backend);
    try {
      await own.app.devices.stop();
      const response = await fetch(`${own.url}/healthz`);
      expect({ status: response.status, text: await response.text() }).toEqual({
        status: 503,
        text: 'not ready\ndatabase: ok\nbroker: down\n',
      });
    } finally {
      await own.stop();
    }
  });

  it('redirects GET / on the API port to the console sign-in, whatever the client accepts', async () => {
    for (const accept of ['text/html', 'application/json', '*/*']) {
      const response = await fetch(`${server.url}/`, { headers: { accept }, redirect: 'manual' });
      expect({ accept, status: response.status, location: response.headers.get('location') }).toEqual({
        accept,
        status: 302,
        location: '/login',
      });
    }
  });

  it('resets a lost admin password from the command line; old password and sessions end', async () => {
    const before = await signedIn(server, 'admin', 'admin123');
    expect((await before.get('/platform/user/select')).body.hhtStatus).toBe('success');
    const done = await resetPassword(server.app.db, TEST_PEPPER, 'admin');
    expect(done?.userType).toBe('0');
    expect(done!.password).toMatch(/^[A-Za-z0-9]{10,}$/);
    // The session signed in with the old password has ended.
    expect((await before.get('/platform/user/select')).status).toBe(401);
    await expect(signedIn(server, 'admin', 'admin123')).rejects.toThrow(/sign-in of admin failed/);
    const after = await signedIn(server, 'admin', done!.password);
    expect((await after.get('/platform/user/select')).body.hhtStatus).toBe('success');
    // A chosen password, and an unknown user changes nothing.
    await resetPassword(server.app.db, TEST_PEPPER, 'admin', 'Chosen2026');
    await signedIn(server, 'admin', 'Chosen2026');
    expect(await resetPassword(server.app.db, TEST_PEPPER, 'nobody-here')).toBeUndefined();
  });
});

describe('readiness checks', () => {
  const repository = (ping: () => Promise<void>) => ({ ping }) as unknown as HealthRepository;

  it('reports a database that fails or does not answer in time, and a broker that is down', async () => {
    const failing = new HealthService(
      repository(() => Promise.reject(new Error('connection refused'))),
      () => true,
    );
    expect(await failing.check()).toEqual({
      ready: false,
      lines: ['database: down (connection refused)', 'broker: ok'],
    });
    const hanging = new HealthService(
      repository(() => new Promise(() => {})),
      () => true,
      30,
    );
    expect(await hanging.check()).toEqual({
      ready: false,
      lines: ['database: down (no answer within 30 ms)', 'broker: ok'],
    });
    const noBroker = new HealthService(
      repository(() => Promise.resolve()),
      () => false,
    );
    expect(await noBroker.check()).toEqual({ ready: false, lines: ['database: ok', 'broker: down'] });
  });
});

describe('server log', () => {
  it('is pretty in a terminal and JSON otherwise, with Fastify’s own request lines off', () => {
    const tty = loggerOptions('info', true);
    expect(tty.logController).toBeInstanceOf(LogController);
    expect(tty.logController!.disableRequestLogging).toBe(true);
    expect(tty.logger).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
    const pipe = loggerOptions('info', false);
    expect(pipe.logger).toEqual({ level: 'info' });
    expect(pipe.logController!.disableRequestLogging).toBe(true);
  });

  it('starts without a Fastify deprecation warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) =>
      warnings.push(`${warning.code}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const http = Fastify(loggerOptions('silent', false));
      installRequestLog(http);
      await http.ready();
      await http.close();
      // process.emitWarning delivers on the next tick: let it arrive before looking.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('FSTDEP'))).toEqual([]);
  });

  it('writes one line per request at debug, none at info', async () => {
    const lines = async (level: string) => {
      const out: string[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          out.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      });
      const http = Fastify({ ...loggerOptions(level, false), logger: { level, stream } });
      installRequestLog(http);
      http.get('/x', async () => 'x');
      await http.inject({ method: 'GET', url: '/x?y=1' });
      await http.close();
      return out.map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    expect(await lines('info')).toEqual([]);
    const debug = await lines('debug');
    expect(debug).toHaveLength(1);
    expect(debug[0]).toMatchObject({ level: 20, msg: 'request', method: 'GET', url: '/x?y=1', status: 200 });
  });
});
