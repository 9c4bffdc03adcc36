import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';
import { sendFail } from './errors.js';

/** Where `GET /` sends any client (a browser, curl, a health probe that follows redirects): the console's sign-in. */
export const CONSOLE_ENTRY = '/login';

/**
 * Serves the built console. `GET /` redirects to its sign-in page, whatever the client accepts.
 * Any other GET that asks for HTML gets index.html, so every console URL works as a deep link;
 * API misses stay JSON 404s.
 */
export async function installConsoleFiles(app: FastifyInstance, webDist: string) {
  const index = path.join(webDist, 'index.html');
  const built = fs.existsSync(index);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      maxAge: '1h',
      immutable: false,
    });
  } else {
    app.log.warn({ webDist }, 'console not built: run `npm run build:web` (npm start does this)');
  }
  app.get('/', async (_request, reply) => reply.redirect(CONSOLE_ENTRY, 302));
  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && built) {
      return reply.header('cache-control', 'no-cache').type('text/html').send(fs.createReadStream(index));
    }
    return sendFail(request, reply, new AppError('common.notFound', 404));
  });
}
