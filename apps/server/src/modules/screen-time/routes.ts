import { screenTime } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { ScreenTimeService } from './service.js';

export function screenTimeRoutes(router: Router, service: ScreenTimeService) {
  router.add(screenTime.selectRptTime, async ({ session, params }) => {
    const orgId = session.user.orgId;
    return { hhtStatus: 'success', ...(await service.report(orgId, params)) };
  });
}
