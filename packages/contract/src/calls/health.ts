import { z } from 'zod';
import { callers } from '../access.js';
import { defineCall } from '../call.js';

/**
 * Readiness for curl, load balancers and scripts: HTTP 200 and "ok" when the database answers
 * and the device broker runs (or, with an external broker, the server is connected to it);
 * otherwise HTTP 503 and one line per part that is down. Plain text, no session, no envelope.
 */
export const healthz = defineCall({
  method: 'GET',
  path: '/healthz',
  summary:
    'Readiness: 200 "ok" when the database and the device broker answer, 503 and what is down otherwise',
  tag: 'health',
  access: callers.anyone,
  params: z.object({}),
  reply: z.string(),
  produces: 'text/plain',
});
