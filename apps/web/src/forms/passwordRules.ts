import { isValidPassword } from '@panelfleet/contract';
import type { SchemaRule } from './schemaRule';

export const PASSWORD_RULE_KEY = 'register.passwordRule';

/**
 * The message key for a typed (plain) password, or undefined when it is fine. The server only
 * sees the MD5, so the 6-16 letter-and-digit rule can be checked only here.
 */
export function plainPasswordProblem(value: unknown, emptyKey: string, checkRule = true): string | undefined {
  if (typeof value !== 'string' || value === '') return emptyKey;
  if (checkRule && !isValidPassword(value)) return PASSWORD_RULE_KEY;
  return undefined;
}

/** The message key when a confirmation differs from the password it repeats. */
export function confirmationProblem(
  value: unknown,
  original: unknown,
  emptyKey: string,
  differKey: string,
): string | undefined {
  if (typeof value !== 'string' || value === '') return emptyKey;
  return value === original ? undefined : differKey;
}

const asRule = (
  problem: (value: unknown) => string | undefined,
  translate: (key: string) => string,
): SchemaRule => ({
  async validator(_rule, value) {
    const key = problem(value);
    if (key) throw new Error(translate(key));
  },
});

/** antd rule for a new password: required (emptyKey) and the contract's password rule. */
export const passwordRule = (translate: (key: string) => string, emptyKey: string, checkRule = true) =>
  asRule((value) => plainPasswordProblem(value, emptyKey, checkRule), translate);

/** antd rule for a confirmation field; give the form item `dependencies` on the original. */
export const confirmationRule = (
  translate: (key: string) => string,
  original: () => unknown,
  emptyKey: string,
  differKey: string,
) => asRule((value) => confirmationProblem(value, original(), emptyKey, differKey), translate);
