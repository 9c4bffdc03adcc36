import { sso } from '@panelfleet/contract';
import { z } from 'zod';

type UserType = '0' | '1' | '2' | '3' | '4';

/** The user types a sign-in may give in an organisation of each kind (a company's own account stays local). */
export function typesOfKind(kind: string): UserType[] {
  if (kind === 'platform') return ['0'];
  if (kind === 'distributor') return ['1'];
  if (kind === 'customer') return ['3', '4'];
  return [];
}

export function parseMappings(text: string): sso.SsoMapping[] {
  const parsed = z.array(sso.ssoMapping).safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : [];
}

/** The values of a claim as strings: a group list, a single role, a boolean. */
function claimValues(claims: Record<string, unknown>, name: string): string[] {
  const value = claims[name];
  if (Array.isArray(value)) return value.map(String);
  if (value === undefined || value === null) return [];
  return [String(value)];
}

/** The first mapping rule the claims match, in the administrator's order; none gives no user type. */
export function mappedRole(
  claims: Record<string, unknown>,
  mappings: readonly sso.SsoMapping[],
  allowed: readonly UserType[],
): { userType: UserType; programRole: number } | undefined {
  for (const rule of mappings) {
    if (!allowed.includes(rule.userType)) continue;
    if (
      rule.value === '*'
        ? claims[rule.claim] !== undefined
        : claimValues(claims, rule.claim).includes(rule.value)
    )
      return { userType: rule.userType, programRole: rule.programRole };
  }
  return undefined;
}

/** The domain of an e-mail address, lower case. */
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
