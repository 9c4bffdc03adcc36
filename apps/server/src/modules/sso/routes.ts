import { sso, translate } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import { Refusal } from '../../refusal.js';
import type { SsoSettingsService } from './settings-service.js';
import type { SsoSignInService } from './sign-in-service.js';

export function ssoRoutes(router: Router, deps: { settings: SsoSettingsService; signIn: SsoSignInService }) {
  router.add(sso.settings, async ({ session }) => ({
    hhtStatus: 'success',
    dataObject: await deps.settings.read(session.user),
  }));

  router.add(sso.saveSettings, async ({ session, params, ip, language }) => {
    await deps.settings.save(session.user, ip, params);
    return { hhtStatus: 'success', hhtMsg: translate(language, 'sso.saved') };
  });

  router.add(sso.find, async ({ params }) => ({
    hhtStatus: 'success',
    ...(await deps.signIn.find(params.name)),
  }));

  router.add(sso.start, async ({ params, request, reply }) => {
    const url = await deps.signIn.start(request, reply, params.provider, params.returnTo);
    await reply.header('cache-control', 'no-store').redirect(url.href, 302);
    return undefined;
  });

  // The browser comes back here from the provider: always a redirect, to the console path asked
  // for, or to the sign-in page with the refusal's key (the page shows it in its language).
  router.add(sso.callback, async ({ params, request, reply }) => {
    let target: string;
    try {
      target = await deps.signIn.finish(request, reply, params);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      target = `/login?sso=${encodeURIComponent(error.key)}`;
    }
    await reply.header('cache-control', 'no-store').redirect(target, 302);
    return undefined;
  });
}
