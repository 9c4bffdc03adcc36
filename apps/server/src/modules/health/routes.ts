import { health } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { HealthService } from './service.js';

/** HTTP status of a readiness answer: load balancers read the status, people the text. */
const READY = 200;
const NOT_READY = 503;

export function healthRoutes(router: Router, service: HealthService) {
  router.add(health.healthz, async ({ reply }) => {
    const { ready, lines } = await service.check();
    reply
      .code(ready ? READY : NOT_READY)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8');
    return `${ready ? 'ok' : 'not ready'}\n${lines.join('\n')}\n`;
  });
}
