import type { FastifyInstance } from 'fastify';
import { Refusal } from '../refusal.js';
import { asAppError, sendFail } from './errors.js';

/** The HTTP side of a shutdown (issue 23). */
export interface HttpIntake {
  /**
   * Takes no new request: the server stops listening (a balancer sends new connections to another
   * instance), a request that still arrives on an open connection is answered 503
   * `common.serviceUnavailable`, and every response from now on closes its connection.
   */
  stop(): void;
  /**
   * Resolves once the requests in flight have answered, or after `ms`; then the connections still
   * open (idle ones, and those of requests that outlived `ms`) are closed.
   */
  drained(ms: number): Promise<void>;
}

/**
 * Counts the requests in flight so a shutdown can wait for them, and for nothing else: Fastify's
 * own close waits for every open connection, and a keep-alive connection whose request was in
 * flight when the close began stays open up to its idle timeout (72 s) after answering; that is
 * what made SIGTERM during a label command wait out the shutdown deadline.
 */
export function installIntake(http: FastifyInstance): HttpIntake {
  let stopped = false;
  let inFlight = 0;
  let idle: (() => void) | undefined;

  http.addHook('onRequest', async (request, reply) => {
    if (stopped) {
      reply.header('connection', 'close');
      return sendFail(request, reply, asAppError(new Refusal('common.serviceUnavailable', 'unavailable')));
    }
    inFlight++;
    reply.raw.once('close', () => {
      inFlight--;
      if (inFlight === 0) idle?.();
    });
  });
  http.addHook('onSend', async (_request, reply, payload) => {
    if (stopped) reply.header('connection', 'close');
    return payload;
  });

  return {
    stop() {
      stopped = true;
      // Node's close also ends the connections that are idle now.
      if (http.server.listening) http.server.close();
    },
    async drained(ms) {
      if (inFlight > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          idle = resolve;
          timer = setTimeout(resolve, ms);
        });
        clearTimeout(timer);
        idle = undefined;
      }
      http.server.closeAllConnections();
    },
  };
}
