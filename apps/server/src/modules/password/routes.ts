import { accounts, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import { mailSentKey } from '../mail/mailer.js';
import type { PasswordService } from './service.js';

export function passwordRoutes(router: Router, passwords: PasswordService) {
  router.add(accounts.forgetPassword, async ({ params, language }) => {
    await passwords.forgot(params.email, language);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, mailSentKey(passwords.mailDelivery, 'findPassword.sent')),
    };
  });

  router.add(accounts.verificationEmail, async ({ params }) => {
    await passwords.verify(params);
    return { hhtStatus: 'success' };
  });

  router.add(accounts.resetPassword, async ({ params, language, ip }) => {
    await passwords.reset(params, params.password, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'forgetPsw.success') };
  });

  router.add(accounts.updatePassword, async ({ params, session, language, ip }) => {
    await passwords.change(session.user.id, session.id, params.userPass, params.userNewPass, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'modifyPsw.success') };
  });
}
