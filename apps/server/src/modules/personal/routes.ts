import { accounts, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { PersonalService } from './service.js';

export function personalRoutes(router: Router, personal: PersonalService) {
  router.add(accounts.updatePersonal, async ({ params, session, ip, language }) => {
    await personal.update(session.user, ip, params.userId, { phone: params.phone, email: params.email });
    return { hhtStatus: 'success', hhtMsg: translate(language, 'personal.updated') };
  });
}
