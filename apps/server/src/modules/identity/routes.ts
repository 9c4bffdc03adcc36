import { identity, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { IdentityService } from './service.js';

export function identityRoutes(router: Router, service: IdentityService) {
  router.add(identity.getSecondFactor, async ({ session }) => ({
    hhtStatus: 'success',
    dataObject: await service.state(session.user),
  }));

  router.add(identity.startSecondFactor, async ({ session }) => ({
    hhtStatus: 'success',
    dataObject: await service.start(session.user),
  }));

  router.add(identity.confirmSecondFactor, async ({ params, session, ip, language }) => ({
    hhtStatus: 'success',
    hhtMsg: translate(language, 'secondFactor.enrolled'),
    dataObject: { recoveryCodes: await service.confirm(session.user, params.code, ip) },
  }));

  router.add(identity.removeSecondFactor, async ({ params, session, ip, language }) => {
    await service.remove(session.user, params.code, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'secondFactor.removed') };
  });

  router.add(identity.listSessions, async ({ session }) => {
    const rows = await service.sessions(session.user, session.id);
    return { hhtStatus: 'success', listObject: rows, totalRecords: rows.length };
  });

  router.add(identity.endSession, async ({ params, session, ip, language }) => {
    await service.endSession(session.user, params.ref, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'session.ended') };
  });

  router.add(identity.endOtherSessions, async ({ session, ip, language }) => {
    await service.endOtherSessions(session.user, session.id, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'session.endedOthers') };
  });

  router.add(identity.resetUserSecondFactor, async ({ params, session, ip, language }) => {
    await service.resetUser(session.user, params.userId, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'secondFactor.reset') };
  });

  router.add(identity.endUserSessions, async ({ params, session, ip, language }) => {
    await service.endUserSessions(session.user, params.userId, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'session.endedUser') };
  });

  router.add(identity.getSecondFactorPolicy, async ({ session }) => ({
    hhtStatus: 'success',
    dataObject: await service.policy(session.user),
  }));

  router.add(identity.setSecondFactorPolicy, async ({ params, session, ip, language }) => {
    await service.setPolicy(session.user, params.required === 1, ip);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'secondFactor.policySaved') };
  });
}
