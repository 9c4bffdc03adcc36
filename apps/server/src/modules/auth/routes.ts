import { auth, identity, translate } from '@panelfleet/contract';
import { Refusal } from '../../refusal.js';
import type { Router } from '../../http/router.js';
import type { SessionService } from '../session/service.js';
import type { UserRepository } from '../users/repository.js';
import type { AuthService } from './service.js';
import type { SignInSteps } from './sign-in-steps.js';

export function authRoutes(
  router: Router,
  deps: { auth: AuthService; steps: SignInSteps; sessions: SessionService; users: UserRepository },
) {
  router.add(auth.login, async ({ params, request, reply, language }) => {
    const { user, nextStep } = await deps.auth.signIn(request, reply, params, request.log);
    return {
      hhtStatus: 'success',
      ...(nextStep === 'done' ? { hhtMsg: translate(language, 'login.success') } : {}),
      program_role: String(user.program_role),
      nextStep,
    };
  });

  router.add(identity.signInCode, async ({ params, request, reply, language }) => {
    const user = await deps.steps.code(request, reply, params.code, request.log);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'login.success'),
      program_role: String(user.program_role),
      nextStep: 'done',
    };
  });

  router.add(identity.signInEnrolStart, async ({ request }) => ({
    hhtStatus: 'success',
    dataObject: await deps.steps.enrolStart(request),
  }));

  router.add(identity.signInEnrolConfirm, async ({ params, request, reply, language }) => {
    const { user, recoveryCodes } = await deps.steps.enrolConfirm(request, reply, params.code, request.log);
    return {
      hhtStatus: 'success',
      hhtMsg: translate(language, 'login.success'),
      program_role: String(user.program_role),
      nextStep: 'done',
      recoveryCodes,
    };
  });

  router.add(auth.userType, async ({ session }) => ({
    hhtStatus: 'success',
    userType: session.user.userType,
    userName: session.user.userName,
    state: session.user.activated,
  }));

  router.add(auth.selectUser, async ({ session }) => {
    const profile = await deps.users.findProfile(session.user.id);
    if (!profile) throw new Refusal('common.notFound', 'notFound');
    return {
      hhtStatus: 'success',
      dataObject: {
        userId: profile.id,
        userName: profile.user_name,
        companyName: profile.company_name,
        phone: profile.phone,
        email: profile.email,
        avatar: profile.avatar,
        state: profile.activated === 1 ? 1 : 0,
      },
    };
  });

  router.add(auth.logout, async ({ request, reply, language }) => {
    await deps.sessions.end(request, reply);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'logout.success') };
  });
}
