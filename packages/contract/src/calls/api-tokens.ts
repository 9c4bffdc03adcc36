import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers, TOKEN_SCOPES } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { requiredText } from '../rules.js';
import { recordId, recordIdList } from '../ids.js';

/**
 * API tokens (issue 28 item 1): a user makes tokens for itself in the personal centre. A token
 * acts as its user within its scope (access.ts `tokenNeedOf`), sent as `Authorization: Bearer`.
 * The token is shown once, when made; the server keeps only its SHA-256.
 */
const tag = 'api tokens';

/** Every token starts so, which makes a leaked one easy to recognise (and to scan for). */
export const API_TOKEN_PREFIX = 'pf_';
/** How many tokens one user may keep (live or not yet deleted). */
export const MAX_TOKENS_PER_USER = 20;
/** Labels a token may be restricted to. */
export const MAX_TOKEN_LABELS = 50;

/** A token's state as listed: live, past its expiry, revoked, or ended with its user's password or account. */
export const API_TOKEN_STATES = ['active', 'expired', 'revoked', 'ended'] as const;

export const apiTokenView = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  /** The first characters of the token (its prefix and 4 more), to tell tokens apart. */
  hint: z.string(),
  labelIds: z.array(z.number().int()),
  labelNames: z.array(z.string()),
  expiresAt: z.number().nullable(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  lastUsedIp: z.string().nullable(),
  state: z.enum(API_TOKEN_STATES),
});
export type ApiTokenView = z.infer<typeof apiTokenView>;

export const listTokens = defineCall({
  method: 'GET',
  path: '/platform/apiToken/list',
  tag,
  access: callers.self,
  summary: "The signed-in user's API tokens (never the tokens themselves)",
  params: z.object({}),
  reply: listReply(apiTokenView),
});

export const createToken = defineCall({
  method: 'POST',
  path: '/platform/apiToken/create',
  tag,
  access: callers.self,
  summary: 'Make an API token for the signed-in user; the reply holds the token, shown this once',
  params: z.object({
    name: requiredText('apiToken.nameNull', 64),
    scope: z.enum(TOKEN_SCOPES, { error: 'apiToken.scopeInvalid' }),
    /** Epoch milliseconds; empty: no expiry. */
    expiresAt: z
      .union([z.literal(''), z.coerce.number({ error: 'apiToken.expiryInvalid' }).int().positive()])
      .optional()
      .transform((v) => (v === '' || v === undefined ? null : v)),
    /** Comma-separated label ids; empty: every panel the user reaches. */
    labelIds: z
      .union([
        z.literal(''),
        recordIdList('apiToken.labelInvalid', MAX_TOKEN_LABELS, 'apiToken.labelInvalid'),
      ])
      .optional()
      .transform((v) => (v === '' || v === undefined ? [] : v)),
  }),
  reply: itemReply(apiTokenView.extend({ token: z.string() })),
});

export const revokeToken = defineCall({
  method: 'POST',
  path: '/platform/apiToken/revoke',
  tag,
  access: callers.self,
  summary: 'Revoke one of the signed-in user’s API tokens; it is refused from the next call on',
  params: z.object({ id: recordId('apiToken.notFound') }),
  reply: emptyReply,
});
