import { auth } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';

export function runtimeConfigRoutes(router: Router, runtime: auth.RuntimeConfig) {
  router.add(auth.getRuntimeConfig, async () => ({ hhtStatus: 'success', dataObject: runtime }));
}
