import { servers, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { ServerRegistry } from './service.js';

export function serverRegistryRoutes(router: Router, registry: ServerRegistry) {
  router.add(servers.enrollServer, async ({ params }) => ({
    hhtStatus: 'success',
    dataObject: await registry.enroll(params),
  }));
  router.add(servers.reportServer, async ({ params }) => ({
    hhtStatus: 'success',
    dataObject: await registry.report(params),
  }));
  router.add(servers.listServer, async ({ params, session }) => {
    const { rows, total } = await registry.list(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
  router.add(servers.syncData, async ({ language }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'common.success'),
    dataObject: await registry.sync(),
  }));
}
