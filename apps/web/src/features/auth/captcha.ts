import { auth } from '@panelfleet/contract';

/** Spec 1 section 9: a fresh captcha every 20 minutes even if the user does nothing. */
export const CAPTCHA_REFRESH_MS = 1_200_000;

/** The stamp makes each refresh a new URL; the captcha itself is bound to the session cookie. */
export const captchaUrl = (stamp: number): string => `${auth.captchaImage.path}?date=${stamp}`;
