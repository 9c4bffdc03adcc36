import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../src/http/errors.js';
import { backends, startServer, type TestServer } from './harness.js';

/**
 * What a request whose transaction PostgreSQL aborted for another one answers: the spec's
 * envelope with 503 serviceUnavailable (nothing was written; sending it again succeeds), not a 500.
 */
describe.runIf(backends.includes('postgres'))('a transaction conflict in a request', () => {
  let server: TestServer;
  const edge = Fastify({ logger: false });

  beforeAll(async () => {
    server = await startServer('postgres');
    installErrorHandling(edge);
    // PostgreSQL's own errors, raised with the SQLSTATEs a deadlock and a serialization failure carry.
    for (const [path, code] of [
      ['/deadlock', '40P01'],
      ['/serialization', '40001'],
    ] as const)
      edge.get(path, async () => {
        await sql`DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = ${sql.lit(code)}; END $$`.execute(
          server.app.db.kysely,
        );
      });
    await edge.ready();
  });
  afterAll(async () => {
    await edge.close();
    await server?.stop();
  });

  it.each(['/deadlock', '/serialization'])(
    '%s answers 503 serviceUnavailable in the envelope',
    async (url) => {
      const reply = await edge.inject({ method: 'GET', url, headers: { 'accept-language': 'en-US' } });
      expect(reply.statusCode).toBe(503);
      expect(reply.json()).toMatchObject({
        hhtStatus: 'fail',
        hhtMsg: 'The service is briefly unavailable; please try again in a moment',
        hhtMsgKey: 'common.serviceUnavailable',
      });
    },
  );
});
