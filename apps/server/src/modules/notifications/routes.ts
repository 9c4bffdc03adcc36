import { notifications, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { NotificationService } from './service.js';

export function notificationRoutes(router: Router, service: NotificationService) {
  router.add(notifications.sendMessage, async ({ session, params, ip, language }) => {
    const commandIds = await service.send(session.user, ip, params);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'notice.sent'),
      dataObject: { count: commandIds.length, commandIds },
    };
  });

  router.add(notifications.selectDelivery, async ({ session, params }) => {
    const orgId = session.user.orgId;
    const list = await service.deliveries(orgId, params.commandIds);
    return { hhtStatus: 'success', listObject: list, totalRecords: list.length };
  });
}
