import { accounts, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { CustomerService } from './service.js';

export function customerRoutes(router: Router, service: CustomerService) {
  router.add(accounts.customerList, async ({ params, session }) => {
    const { rows, total } = await service.list(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(accounts.updateCustomer, async ({ params, session, ip, language }) => {
    await service.setState(session.user, params.userId, params.state, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });

  router.add(accounts.getQuota, async ({ params, session }) => ({
    hhtStatus: 'success',
    dataObject: await service.quota(session.user, params.customerId),
  }));

  router.add(accounts.updateQuota, async ({ params, session, ip, language }) => {
    await service.setQuota(session.user, params.customerUserNumberId, params.userNumber, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });
}
