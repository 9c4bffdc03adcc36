import { accounts, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import { mailSentKey } from '../mail/mailer.js';
import type { CustomerService } from '../customers/service.js';
import type { ConsoleUserService } from './service.js';

export function consoleUserRoutes(router: Router, service: ConsoleUserService, customers: CustomerService) {
  router.add(accounts.userList, async ({ params, session }) => {
    const { rows, total } = await service.list(session.user, params);
    return { hhtStatus: 'success', listObject: rows, totalRecords: total };
  });

  router.add(accounts.insertUser, async ({ params, session, ip, language }) => {
    await service.insert(session.user, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });

  router.add(accounts.updateUser, async ({ params, session, ip, language }) => {
    await service.update(session.user, params, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });

  router.add(accounts.deleteUser, async ({ params, session, ip, language }) => {
    await service.delete(session.user, params.userId, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'common.success') };
  });

  router.add(accounts.userResetPassword, async ({ params, session, ip, language }) => {
    // One call for both lists: a customer resets its console users, distributors their customers.
    const email =
      session.user.userType === '2'
        ? await service.resetPassword(session.user, params.userId, language, ip)
        : await customers.resetPassword(session.user, params.userId, language, ip);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, mailSentKey(service.mailDelivery, 'user.resetSent'), { email }),
    };
  });
}
