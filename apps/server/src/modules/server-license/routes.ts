import { servers, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { ServerLicense } from './service.js';

export function serverLicenseRoutes(router: Router, license: ServerLicense) {
  router.add(servers.checkLicense, async () => {
    await license.requireActive();
    return { hhtStatus: 'success' };
  });
  router.add(servers.registerLicense, async ({ params, language }) => {
    await license.activate(params.license, 'first', language);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'serverLicense.activated') };
  });
  router.add(servers.activationServer, async ({ params, language }) => {
    await license.activate(params.license, 'renew', language);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'serverLicense.activated') };
  });
}
