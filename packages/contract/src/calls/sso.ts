import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers, users } from '../access.js';
import { emptyReply, itemReply, okBase } from '../envelope.js';
import { recordId } from '../ids.js';
import { requiredText } from '../rules.js';

const tag = 'sso';

/** Who configures an organisation's sign-in: the platform, a distributor's and a company's account. */
const ssoAdmins = users(['0', '1', '2']);

/** One rule of the claim mapping: a claim (or group) value gives a user type and a program role. */
export const ssoMapping = z.object({
  claim: z.string().trim().min(1).max(64),
  value: z.string().trim().min(1).max(200),
  userType: z.enum(['0', '1', '3', '4']),
  programRole: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(0),
});
export type SsoMapping = z.infer<typeof ssoMapping>;

/** The mapping travels in a form as JSON text; anything else is refused with `sso.mappingInvalid`. */
export const ssoMappingText = z
  .string()
  .max(8000)
  .transform((text, ctx) => {
    try {
      const parsed = z
        .array(ssoMapping)
        .max(50)
        .safeParse(text.trim() === '' ? [] : JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: the same refusal as a JSON value of the wrong shape, below
    }
    ctx.addIssue({ code: 'custom', message: 'sso.mappingInvalid' });
    return z.NEVER;
  });

/** Where the console may send the browser back after a sign-in: its own paths only. */
export function isConsolePath(path: string): boolean {
  return /^\/(home|login)(\/[A-Za-z0-9_\-/]*)?(\?[A-Za-z0-9_=&%\-.]*)?$/.test(path) && !path.includes('//');
}

export const ssoSettingsItem = z.object({
  enabled: z.union([z.literal(0), z.literal(1)]),
  displayName: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  /** Whether a client secret is kept; the secret itself is never returned. */
  hasSecret: z.union([z.literal(0), z.literal(1)]),
  emailDomains: z.string(),
  mappings: z.array(ssoMapping),
  jit: z.union([z.literal(0), z.literal(1)]),
  ssoOnly: z.union([z.literal(0), z.literal(1)]),
  breakGlassUser: z.string(),
  /** The redirect URL to register with the identity provider. */
  redirectUrl: z.string(),
});

export const settings = defineCall({
  method: 'GET',
  path: '/platform/sso/settings',
  summary: "The caller's organisation's OIDC sign-in settings (never the client secret)",
  tag,
  access: ssoAdmins,
  params: z.object({}),
  reply: itemReply(ssoSettingsItem),
});

const flag = z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)]));

export const saveSettings = defineCall({
  method: 'POST',
  path: '/platform/sso/settings',
  summary: "Saves the caller's organisation's OIDC sign-in; an empty clientSecret keeps the kept one",
  tag,
  access: ssoAdmins,
  params: z.object({
    enabled: flag,
    displayName: requiredText('sso.displayNameNull', 64),
    issuer: z.string().trim().url({ error: 'sso.issuerInvalid' }).max(300),
    clientId: requiredText('sso.clientIdNull', 200),
    clientSecret: z.string().max(500).optional(),
    emailDomains: z.string().max(1000).default(''),
    mappings: ssoMappingText,
    jit: flag,
    ssoOnly: flag,
    breakGlassUser: z.string().trim().max(64).default(''),
  }),
  reply: emptyReply,
});

export const find = defineCall({
  method: 'GET',
  path: '/platform/sso/find',
  summary: "The organisation's identity provider for an organisation name or an e-mail of its domains",
  tag,
  access: callers.anyone,
  params: z.object({ name: requiredText('sso.nameNull', 200) }),
  reply: okBase.extend({ providerId: z.number().int(), displayName: z.string() }),
});

export const start = defineCall({
  method: 'GET',
  path: '/platform/sso/start',
  summary: "Sends the browser to the organisation's identity provider (302)",
  tag,
  access: callers.anyone,
  params: z.object({
    provider: recordId('sso.notFound'),
    returnTo: z.string().max(300).optional(),
  }),
  reply: z.string(),
  produces: 'text/html',
});

export const callback = defineCall({
  method: 'GET',
  path: '/platform/sso/callback',
  summary:
    "The identity provider's answer: a session and back to the console (302), or the sign-in page with why not",
  tag,
  access: callers.anyone,
  params: z.object({
    code: z.string().max(2000).optional(),
    state: z.string().max(200).optional(),
    error: z.string().max(200).optional(),
    iss: z.string().max(300).optional(),
  }),
  reply: z.string(),
  produces: 'text/html',
});

export type SaveSettingsParams = z.output<typeof saveSettings.params>;
