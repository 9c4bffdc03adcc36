import { dashboard } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { DashboardService } from './service.js';

export function dashboardRoutes(router: Router, service: DashboardService) {
  router.add(dashboard.previewCustomerDevice, async ({ session, params }) => ({
    hhtStatus: 'success',
    dataObject: await service.dashboard(session.user, params.customerId),
  }));

  router.add(dashboard.history, async ({ session, params }) => {
    const { keptFrom, points } = await service.history(session.user, params);
    return { hhtStatus: 'success', listObject: points, totalRecords: points.length, keptFrom };
  });

  router.add(dashboard.mapDevices, async ({ session }) => {
    const { devices, located, unlocated } = await service.mapDevices(session.user);
    return { hhtStatus: 'success', listObject: devices, totalRecords: located, unlocated };
  });
}
