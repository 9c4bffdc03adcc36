import { accounts, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { SalespersonService } from './service.js';

export function salespersonRoutes(router: Router, service: SalespersonService) {
  router.add(accounts.saleManList, async ({ params, session }) => {
    const { rows, total } = await service.list(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
  router.add(accounts.saleManAdd, async ({ params, session, ip, language }) => {
    await service.add(session.user, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });
  router.add(accounts.saleManUpdate, async ({ params, session, ip, language }) => {
    await service.update(session.user, params.id, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });
  router.add(accounts.saleManDelete, async ({ params, session, ip, language }) => {
    await service.delete(session.user, params.id, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });
}
