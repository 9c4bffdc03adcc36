import type { FastifyReply, FastifyRequest } from 'fastify';
import svgCaptcha from 'svg-captcha';
import { CAPTCHA_LENGTH } from '@panelfleet/contract';
import type { Clock } from '../../clock.js';
import { Refusal } from '../../refusal.js';
import { randomToken, tokenHash } from '../../security/tokens.js';
import type { CaptchaRepository } from './repository.js';

export const CAPTCHA_COOKIE = 'pf_captcha';
export const CAPTCHA_TTL_MS = 5 * 60_000;

/** A captcha is bound to the browser by a cookie, answers once, and expires. */
export class CaptchaService {
  constructor(
    private readonly captchas: CaptchaRepository,
    private readonly clock: Clock,
    private readonly secureCookies: boolean,
  ) {}

  async issue(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const image = svgCaptcha.create({
      size: CAPTCHA_LENGTH,
      noise: 2,
      ignoreChars: '0oO1iIlL',
      width: 110,
      height: 40,
    });
    const token = request.cookies[CAPTCHA_COOKIE] ?? randomToken();
    const now = this.clock.now();
    await this.captchas.put(tokenHash(token), image.text.toLowerCase(), now + CAPTCHA_TTL_MS, now);
    reply.setCookie(CAPTCHA_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secureCookies,
    });
    return image.data;
  }

  /** Checks the answer against this browser's captcha and spends it either way. */
  async check(request: FastifyRequest, answer: string): Promise<void> {
    const token = request.cookies[CAPTCHA_COOKIE];
    const stored = token ? await this.captchas.take(tokenHash(token)) : undefined;
    if (!stored || stored.expires_at < this.clock.now()) throw new Refusal('login.captchaExpired');
    if (stored.answer !== answer.trim().toLowerCase()) throw new Refusal('login.captchaWrong');
  }
}
