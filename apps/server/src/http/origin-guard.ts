import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** scheme://host[:port] of a URL, with the scheme's default port left out; null when it is none. */
function originOf(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
}

/** The origin the request was sent to: its scheme (from a trusted proxy, else the connection) and Host. */
function requestedOrigin(request: FastifyRequest): string | null {
  return originOf(`${request.protocol}://${request.host}`);
}

/**
 * Refuses writes that a browser sent from another site. A write is allowed when it carries no
 * Origin (device tools, curl) or when its Origin is, in scheme, host and port, the configured
 * BASE_URL's or the one it was sent to; Sec-Fetch-Site: cross-site is refused whatever the
 * Origin says.
 */
export function installOriginGuard(app: FastifyInstance, baseUrl: string) {
  const configured = new URL(baseUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('common.foreignOrigin', 403);
    const header = request.headers.origin;
    if (header === undefined) return;
    const origin = originOf(header);
    if (origin === null || (origin !== configured && origin !== requestedOrigin(request))) {
      throw new AppError('common.foreignOrigin', 403);
    }
  });
}
