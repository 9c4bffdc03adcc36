import type { Foundation } from '../../foundation.js';
import { CaptchaRepository } from './repository.js';
import { captchaRoutes } from './routes.js';
import { CaptchaService } from './service.js';

export function installCaptcha(f: Foundation): CaptchaService {
  const captcha = new CaptchaService(new CaptchaRepository(f.kysely), f.clock, f.secureCookies);
  captchaRoutes(f.router, captcha);
  return captcha;
}
