import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';

/**
 * The server's log: in a terminal one readable line per entry (pino-pretty), otherwise one JSON
 * object per line for log collectors. Fastify's own per-request lines ("incoming request",
 * "request completed") are off; installRequestLog writes one line per request at debug instead,
 * so at the default level (info) the start-up lines, such as the first start's admin password,
 * stay on screen.
 */
export function loggerOptions(
  level: string,
  tty: boolean = process.stdout.isTTY === true,
): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  return {
    // Fastify 5.8+ takes this through a log controller (the top-level option is deprecated).
    logController: new LogController({ disableRequestLogging: true }),
    logger: tty
      ? {
          level,
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId', singleLine: true },
          },
        }
      : { level },
  };
}

/** One line per answered request at debug: method, URL, status and milliseconds. */
export function installRequestLog(http: FastifyInstance) {
  http.addHook('onResponse', (request, reply, done) => {
    request.log.debug(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
}
