import { z } from 'zod';

/**
 * Validation rules shared by server and console. Each message is a translation key from
 * i18n/<lang>.json so that the server's hhtMsg and the console's form errors read the same.
 */

/** Characters that count one width unit: codes 1-126 and half-width katakana 65376-65439 (spec 2 section 5). */
const isSingleWidth = (code: number) => (code >= 1 && code <= 126) || (code >= 65376 && code <= 65439);

/** Width units: single-byte characters count 1, anything else (CJK, emoji) counts 2. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += isSingleWidth(ch.codePointAt(0)!) ? 1 : 2;
  return width;
}

/** The longest start of `text` that fits in `maxWidth` units (inputs cut what is typed or pasted beyond the limit). */
export function truncateToWidth(text: string, maxWidth: number): string {
  let width = 0;
  let end = 0;
  for (const ch of text) {
    width += isSingleWidth(ch.codePointAt(0)!) ? 1 : 2;
    if (width > maxWidth) break;
    end += ch.length;
  }
  return text.slice(0, end);
}

export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d).{6,16}$/;
export const PHONE_PATTERN = /^\+?\d+(?:-\d+)*$/;
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
export const MD5_PATTERN = /^[a-f0-9]{32}$/i;
export const CAPTCHA_LENGTH = 4;

export const isValidPassword = (plain: string) => PASSWORD_PATTERN.test(plain);
export const isValidPhone = (phone: string) => PHONE_PATTERN.test(phone) && phone.length <= 32;
export const isValidEmail = (email: string) => EMAIL_PATTERN.test(email) && email.length <= 128;

/** A required text field: trimmed, non-empty (message `emptyKey`), at most `maxWidth` units. */
export const requiredText = (emptyKey: string, maxWidth = 64, tooLongKey = 'common.tooLong') =>
  z
    .string({ error: emptyKey })
    .trim()
    .min(1, { error: emptyKey })
    .refine((v) => textWidth(v) <= maxWidth, { error: tooLongKey });

/** An optional text field limited in width units; empty becomes undefined. */
export const optionalText = (maxWidth = 255, tooLongKey = 'common.tooLong') =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || textWidth(v) <= maxWidth, { error: tooLongKey });

/** A password as the browser sends it: the MD5 hex of what the user typed. */
export const md5Password = (emptyKey: string) =>
  z
    .string({ error: emptyKey })
    .trim()
    .min(1, { error: emptyKey })
    .regex(MD5_PATTERN, { error: 'common.invalidPasswordHash' })
    .transform((v) => v.toLowerCase());

export const phone = (emptyKey = 'common.notNull') =>
  requiredText(emptyKey, 32).refine(isValidPhone, { error: 'phoneRule' });
export const email = (emptyKey = 'common.notNull') =>
  requiredText(emptyKey, 128).refine(isValidEmail, { error: 'register.emailFormat' });

/** Page parameters of every list call. */
export const PAGE_SIZES = [5, 10, 20, 30, 50] as const;
export const DEFAULT_PAGE_SIZE = 5;
export const pageParams = z.object({
  start: z.coerce.number().int().min(0).max(10_000_000).default(0),
  size: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
});
