import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses writes that a browser sent from another site. A write is allowed when it carries no
 * Origin (device tools, curl) or when its Origin is the configured BASE_URL's or the host it
 * was sent to; Sec-Fetch-Site: cross-site is refused whatever the Origin says.
 */
export function installOriginGuard(app: FastifyInstance, baseUrl: string) {
  const configured = new URL(baseUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new AppError('common.foreignOrigin', 403);
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin === configured) return;
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw new AppError('common.foreignOrigin', 403);
    }
    if (host !== request.headers.host) throw new AppError('common.foreignOrigin', 403);
  });
}
