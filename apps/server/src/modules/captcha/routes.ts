import { auth } from '@panelfleet/contract';
import type { Router } from '../../http/router.js';
import type { CaptchaService } from './service.js';

export function captchaRoutes(router: Router, captcha: CaptchaService) {
  router.add(auth.captchaImage, async ({ request, reply }) => {
    const svg = await captcha.issue(request, reply);
    reply.header('cache-control', 'no-store').type('image/svg+xml');
    return svg;
  });
}
