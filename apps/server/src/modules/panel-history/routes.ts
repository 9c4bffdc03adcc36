import { panelHistory } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { PanelHistoryService } from './service.js';

export function panelHistoryRoutes(router: Router, service: PanelHistoryService) {
  router.add(panelHistory.selectPanelHistory, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.history(session.user.orgId, params.deviceId, params.from, params.to),
  }));
}
