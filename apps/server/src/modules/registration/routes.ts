import { accounts, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import { mailSentKey } from '../mail/mailer.js';
import type { RegistrationService } from './service.js';

export function registrationRoutes(router: Router, registration: RegistrationService) {
  router.add(accounts.selectSale, async () => {
    const list = await registration.salespeople();
    return { hhtStatus: 'success', listObject: list, totalRecords: list.length };
  });

  router.add(accounts.register, async ({ params, language, ip }) => {
    await registration.register(params, language, ip);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, mailSentKey(registration.mailDelivery, 'register.success'), {
        email: params.email,
      }),
    };
  });

  router.add(accounts.userActivation, async ({ params, language, ip }) => {
    await registration.activate(params.userName, params.time, params.token, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'activation.success') };
  });

  router.add(accounts.sendActivationEmail, async ({ session, language }) => {
    const email = await registration.resendActivation(session.user.id, language);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, mailSentKey(registration.mailDelivery, 'activation.sent'), { email }),
    };
  });
}
