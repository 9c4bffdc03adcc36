import { accounts, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { LicenseService } from './service.js';

export function licenseRoutes(router: Router, service: LicenseService) {
  router.add(accounts.licenseList, async ({ params, session }) => {
    const { rows, total } = await service.list(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });
  router.add(accounts.licenseAdd, async ({ params, session, ip, language }) => {
    const license = await service.add(session.user, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success'), dataObject: { license } };
  });
  router.add(accounts.licenseUpdate, async ({ params, session, ip, language }) => {
    await service.update(session.user, params.id, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });
  router.add(accounts.licenseDelete, async ({ params, session, ip, language }) => {
    await service.delete(session.user, params.id, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });
}
